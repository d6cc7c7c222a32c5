// SPDX-License-Identifier: MIT
// A seed of fuzz_elf (tests/fuzz/README.md says how it is built)
namespace ns { struct point { int x, y; };
template <typename T> struct box { T v; T get() const; };
template <typename T> __attribute__((noinline, used)) T box<T>::get() const { return v; }
__attribute__((noinline, used)) int add(int a, int b) { return a + b; }
__attribute__((noinline, used)) int add(point *p, const char *s) { return p->x + *s; }
struct klass { virtual ~klass() {} int m(long) const; static int s(unsigned); };
__attribute__((noinline, used)) int klass::m(long v) const { return (int)v; }
__attribute__((noinline, used)) int klass::s(unsigned v) { return (int)v; }
}
template struct ns::box<int>;
template struct ns::box<double>;
extern "C" void _start(void) { ns::point p{1, 2}; ns::add(&p, "x"); for (;;); }

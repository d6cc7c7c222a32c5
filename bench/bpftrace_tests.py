#!/usr/bin/env python3
"""Run bpftrace's own runtime tests (tests/runtime/* of a bpftrace source
tree) against lantern, or against any bpftrace-compatible binary.

    bench/bpftrace_tests.py BPFTRACE_SRC [--lantern build/lantern]
        [--filter REGEX] [--jobs 1] [--dialect 0.17|0.26] [--out DIR]

The test files are read in the format of the tree's own engine
(tests/runtime/engine/parser.py): up to 0.19 EXPECT is a regex and each
field is one line; from 0.20 on EXPECT matches a whole line literally,
EXPECT_REGEX, EXPECT_NONE, EXPECT_REGEX_NONE, EXPECT_FILE, EXPECT_JSON,
SETUP, CLEANUP, NEW_PIDNS, RETURN_CODE, several BEFOREs and continued lines
exist. The semantics follow that engine's runner.py: the attach timeout
before __BPFTRACE_NOTIFY_PROBES_ATTACHED, the test's TIMEOUT after it,
AFTER started once the probes are attached, SIGTERM then a last look at
the output on a timeout, the exit status checks (WILL_FAIL, RETURN_CODE).

Tests that need what this kernel lacks (kprobes, kfunc/fentry and the
other BPF tracing programs, hardware PMU events) are skipped, found from
the probe types in the program and from REQUIRES_FEATURE, so that every
tracer is measured on the same set. Results go to --out: results.txt (one
line a test), failures.txt (command, reason and output of each failure),
results.json, summary.txt; the summary is also printed.

Python 3 standard library only. Root is needed (the tests attach probes).
"""

import argparse
import collections
import fcntl
import json
import os
import platform
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

LOCK_PATH = '/tmp/lantern-probes.lock'
NOTIFY = '__BPFTRACE_NOTIFY_PROBES_ATTACHED'
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# --------------------------------------------------------------------------
# What this machine can run
# --------------------------------------------------------------------------

# probe type (and its short alias) -> the mechanism it needs
PROBE_MECHANISM = {
    'kprobe': 'kprobe', 'k': 'kprobe',
    'kretprobe': 'kretprobe', 'kr': 'kretprobe',
    'kfunc': 'kfunc', 'kretfunc': 'kretfunc',
    'fentry': 'fentry', 'f': 'fentry', 'fexit': 'fexit', 'fr': 'fexit',
    'iter': 'iter', 'it': 'iter',
    'hardware': 'hardware', 'h': 'hardware',
}
# the long names, also looked for as probe listing patterns (-l 'kprobe:*')
LONG_PROBE_TYPES = ('kprobe', 'kretprobe', 'kfunc', 'kretfunc', 'fentry',
                    'fexit', 'iter', 'hardware')
# mechanism -> the kernel facility behind it
MECHANISM_FACILITY = {
    'kprobe': 'kprobes', 'kretprobe': 'kprobes',
    'kfunc': 'tracing', 'kretfunc': 'tracing', 'fentry': 'tracing',
    'fexit': 'tracing', 'iter': 'tracing',
    'hardware': 'hardware',
}
# REQUIRES_FEATURE names (bpftrace's `--info` features, 0.17 to 0.26) ->
# the facility they need; None: a tracer feature, always run (a tracer that
# lacks it fails the test rather than skipping it)
FEATURE_FACILITY = {
    'loop': None, 'probe_read_kernel': None, 'signal': None,
    'btf': 'btf',
    'kfunc': 'tracing', 'fentry': 'tracing', 'dpath': 'tracing',
    'skboutput': 'tracing', 'iter': 'tracing', 'iter:task': 'tracing',
    'iter:task_file': 'tracing',
    'kprobe_multi': 'kprobes', 'kprobe_session': 'kprobes',
    'uprobe_refcount': None, 'uprobe_multi': None,
    'libpath_resolv': None, 'dwarf': None, 'dwunwind': None,
    'get_tai_ns': None, 'get_func_ip': None, 'jiffies64': None,
    'lookup_percpu_elem': None,
    'aot': 'aot',
}
FACILITY_TEXT = {
    'kprobes': 'kprobes (no kprobe PMU: CONFIG_KPROBES off)',
    'tracing': 'BPF tracing programs (fentry/fexit/iter; refused here)',
    'hardware': 'hardware PMU events (no cpu PMU)',
    'btf': 'kernel BTF',
    'aot': 'an AOT runtime',
}


def detect_facilities(have, lack):
    ev = '/sys/bus/event_source/devices'
    fac = {
        'kprobes': os.path.isdir(os.path.join(ev, 'kprobe')),
        'hardware': os.path.isdir(os.path.join(ev, 'cpu')),
        'btf': os.path.exists('/sys/kernel/btf/vmlinux'),
        # fentry/fexit/iter: loading is refused on this machine; a cheap
        # probe would need bpf(2), so it is an option (--have tracing)
        'tracing': False,
        'aot': False,
    }
    for f in have:
        fac[f] = True
    for f in lack:
        fac[f] = False
    return fac


# --------------------------------------------------------------------------
# The tree: its format and its engine's constants
# --------------------------------------------------------------------------

class Tree:
    def __init__(self, src):
        self.src = os.path.abspath(src)
        self.tests = os.path.join(self.src, 'tests')
        self.runtime = os.path.join(self.tests, 'runtime')
        if not os.path.isdir(self.runtime):
            sys.exit('%s: no tests/runtime here' % src)
        eng = os.path.join(self.runtime, 'engine')
        parser = _read(os.path.join(eng, 'parser.py'))
        runner = _read(os.path.join(eng, 'runner.py'))
        # 0.20 brought EXPECT_REGEX and the literal EXPECT
        self.new = 'EXPECT_REGEX' in parser
        self.attach_timeout = _int_const(runner, 'ATTACH_TIMEOUT',
                                         10 if self.new else 5)
        self.default_timeout = _int_const(parser + runner, 'DEFAULT_TIMEOUT', 5)
        self.fmt = 'new (literal EXPECT)' if self.new else 'old (regex EXPECT)'


def _read(path):
    try:
        with open(path, errors='replace') as f:
            return f.read()
    except OSError:
        return ''


def _int_const(text, name, default):
    m = re.search(r'^%s\s*=\s*(\d+)' % name, text, re.M)
    return int(m.group(1)) if m else default


# --------------------------------------------------------------------------
# Parsing test files (as tests/runtime/engine/parser.py of the tree does)
# --------------------------------------------------------------------------

class Expect:
    def __init__(self, text, mode):
        self.expect = text
        self.mode = mode  # regex0 (old EXPECT), text, text_none, regex,
        # regex_none, file, json


class Test:
    def __init__(self, suite):
        self.suite = suite
        self.name = ''
        self.run = ''
        self.prog = ''
        self.expects = []
        self.has_exact_expect = False
        self.timeout = None
        self.befores = []
        self.after = ''
        self.setup = ''
        self.cleanup = ''
        self.kernel_min = ''
        self.kernel_max = ''
        self.requirement = []
        self.env = {}
        self.arch = []
        self.features = set()
        self.neg_features = set()
        self.will_fail = False
        self.new_pidns = False
        self.skip_if_env_has = None
        self.return_code = 0
        self.localize_ts = -1
        self.error = None  # a parse error: the test is reported, not run

    @property
    def full(self):
        return '%s.%s' % (self.suite, self.name)


def read_tests(tree):
    suites = []
    for root, subdirs, files in os.walk(tree.runtime):
        for ignore in ('engine', 'scripts', 'outputs'):
            if ignore in subdirs:
                subdirs.remove(ignore)
        for fn in files:
            if fn.startswith('.'):
                continue
            suites.append(os.path.join(root, fn))
    tests = []
    for path in sorted(suites):
        tests.extend(read_file(tree, path))
    tests.sort(key=lambda t: (t.suite, t.name))
    return tests


def read_file(tree, path):
    suite = os.path.basename(path)
    with open(path, errors='replace') as f:
        lines = f.readlines()
    tests, block = [], []
    for num, line in enumerate(lines, 1):
        # like bpftrace's parser: a comment as the file's last line drops
        # the flush of the last block, so that test is not run there either
        if line.startswith('#'):
            continue
        if line != '\n':
            block.append(line)
        if line == '\n' or num == len(lines):
            if block:
                tests.append(parse_block(tree, block, suite))
                block = []
    return tests


def parse_block(tree, block, suite):
    t = Test(suite)
    prev = ''
    for item in block:
        if tree.new and prev and item[:len(prev) + 1].isspace():
            line = item[len(prev) + 1:-1]
            if prev == 'PROG':
                t.prog += '\n' + line
                continue
            if prev in ('EXPECT', 'EXPECT_REGEX'):
                t.expects[-1].expect += '\n' + line
                continue
        if tree.new:
            parts = item.strip().split(maxsplit=1)
            key = parts[0] if parts else ''
            line = parts[1] if len(parts) > 1 else ''
        else:
            parts = item.split()
            key = parts[0] if parts else ''
            line = ' '.join(parts[1:])
        prev = key
        try:
            if key == 'NAME':
                t.name = line
            elif key == 'RUN':
                t.run = line
            elif key == 'PROG':
                t.prog = line
            elif key == 'EXPECT':
                if tree.new:
                    t.expects.append(Expect(line, 'text'))
                else:  # one regex; the last EXPECT wins
                    t.expects = [Expect(line, 'regex0')]
            elif key == 'EXPECT_NONE' and tree.new:
                t.expects.append(Expect(line, 'text_none'))
            elif key == 'EXPECT_REGEX' and tree.new:
                t.expects.append(Expect(line, 'regex'))
            elif key == 'EXPECT_REGEX_NONE' and tree.new:
                t.expects.append(Expect(line, 'regex_none'))
            elif key == 'EXPECT_FILE' and tree.new:
                t.has_exact_expect = True
                t.expects.append(Expect(line, 'file'))
            elif key == 'EXPECT_JSON' and tree.new:
                t.has_exact_expect = True
                t.expects.append(Expect(line, 'json'))
            elif key == 'TIMEOUT':
                t.timeout = int(line.strip(' '))
            elif key == 'BEFORE':
                if tree.new:
                    t.befores.append(line)
                else:  # the last BEFORE wins
                    t.befores = [line]
            elif key == 'AFTER':
                t.after = line
            elif key == 'SETUP' and tree.new:
                t.setup = line
            elif key == 'CLEANUP' and tree.new:
                t.cleanup = line
            elif key == 'MIN_KERNEL':
                t.kernel_min = line
            elif key == 'MAX_KERNEL':
                t.kernel_max = line
            elif key == 'REQUIRES':
                t.requirement.append(line)
            elif key == 'ENV':
                for e in line.split():
                    k, v = e.split('=', 1)
                    t.env[k] = v
            elif key == 'ARCH':
                t.arch = [x.strip() for x in line.split('|')]
            elif key == 'REQUIRES_FEATURE':
                for f in line.split(' '):
                    f = f.strip()
                    if not f:
                        continue
                    if f.startswith('!'):
                        t.neg_features.add(f[1:])
                    else:
                        t.features.add(f)
            elif key == 'WILL_FAIL':
                t.will_fail = True
            elif key == 'NEW_PIDNS' and tree.new:
                t.new_pidns = True
            elif key == 'SKIP_IF_ENV_HAS' and tree.new:
                k, v = line.split('=', 1)
                t.skip_if_env_has = (k, v)
            elif key == 'RETURN_CODE' and tree.new:
                t.return_code = int(line.strip(' '))
            elif key == 'LOCALIZE_TIMESTAMPS' and tree.new:
                t.localize_ts = int(line.strip(' '))
            else:
                t.error = t.error or 'unknown directive %s' % key
        except ValueError as e:
            t.error = t.error or 'bad %s: %s' % (key, e)
    if not t.name:
        t.error = t.error or 'no NAME'
        t.name = '<unnamed %x>' % (hash(''.join(block)) & 0xffffff)
    if not t.run and not t.prog:
        t.error = t.error or 'neither RUN nor PROG'
    elif t.run and t.prog:
        t.error = t.error or 'both RUN and PROG'
    if not t.expects and not (tree.new and t.return_code):
        t.error = t.error or 'no EXPECT'
    if t.timeout is None:
        if tree.new:
            t.timeout = tree.default_timeout
        else:
            t.error = t.error or 'no TIMEOUT'
            t.timeout = tree.default_timeout
    if not t.timeout:  # TIMEOUT 0: the runner's default
        t.timeout = tree.default_timeout
    return t


# --------------------------------------------------------------------------
# Which mechanisms a test needs: probe types in its program(s)
# --------------------------------------------------------------------------

def strip_strings_comments(text):
    out = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
            continue
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            i = n if j < 0 else j + 2
            out.append(' ')
            continue
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == '\\' else 1
            i = j + 1
            out.append('""')
            continue
        out.append(c)
        i += 1
    return ''.join(out)


def top_level(text):
    """The text outside braces (attach points, predicates), others blanked."""
    out, depth = [], 0
    for c in text:
        if c == '{':
            depth += 1
            out.append(' ')
        elif c == '}':
            depth = max(0, depth - 1)
            out.append(' ')
        else:
            out.append(c if depth == 0 else (' ' if c != '\n' else c))
    return ''.join(out)


ATTACH_RE = re.compile(r'(?<![^\s,;])([A-Za-z_]+)\s*:')


def probe_types(prog):
    text = top_level(strip_strings_comments(prog))
    return {m.group(1) for m in ATTACH_RE.finditer(text)}


def test_programs(test, workdir):
    """(programs, other shell words) of a test."""
    if test.prog:
        return [test.prog], []
    progs, words = [], []
    try:
        argv = shlex.split(test.run)
    except ValueError:
        return [], test.run.split()
    i = 0
    while i < len(argv):
        w = argv[i]
        if w == '-e' and i + 1 < len(argv):
            progs.append(argv[i + 1])
            i += 2
            continue
        if w.endswith('.bt'):
            path = os.path.join(workdir, w)
            if os.path.isfile(path):
                progs.append(_read(path))
        words.append(w)
        i += 1
    return progs, words


def needed_mechanisms(test, workdir):
    progs, words = test_programs(test, workdir)
    need = set()
    for p in progs:
        for ty in probe_types(p):
            if ty in PROBE_MECHANISM:
                need.add(PROBE_MECHANISM[ty])
    # probe listings of a type: -l 'kprobe:vfs_*' (not `-l | grep kprobe`,
    # whose probe type is no attach point)
    for w in words:
        m = re.match(r'([a-z]+):', w)
        if m and m.group(1) in LONG_PROBE_TYPES:
            need.add(PROBE_MECHANISM[m.group(1)])
    return need


# --------------------------------------------------------------------------
# Test programs and libraries (tests/testprogs, tests/testlibs)
# --------------------------------------------------------------------------

def _sh(cmd, cwd=None):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True,
                       errors='replace')
    return p.returncode, p.stdout


def _cc_accepts(flag):
    rc, _ = _sh(['sh', '-c', 'echo "int main(void){return 0;}" | '
                 'cc -x c %s -o /dev/null - ' % flag])
    return rc == 0


def _has_sdt():
    rc, _ = _sh(['sh', '-c', 'echo "#include <sys/sdt.h>\nint main(void)'
                 '{DTRACE_PROBE(a, b); return 0;}" | cc -x c -o /dev/null -'])
    return rc == 0


def build_testprogs(tree, work, jobs, log):
    """Build tests/testlibs and tests/testprogs into work/testlibs and
    work/testprogs as bpftrace's CMakeLists do. Returns {target: reason}
    for what could not be built."""
    failed = {}
    src_p = os.path.join(tree.tests, 'testprogs')
    src_l = os.path.join(tree.tests, 'testlibs')
    out_p = os.path.join(work, 'testprogs')
    out_l = os.path.join(work, 'testlibs')
    os.makedirs(out_p, exist_ok=True)
    os.makedirs(out_l, exist_ok=True)
    cmake_p = _read(os.path.join(src_p, 'CMakeLists.txt')) + \
        _read(os.path.join(tree.tests, 'CMakeLists.txt'))
    cflags = ['-g', '-O0']
    for fl in ('-fno-omit-frame-pointer', '-mno-omit-leaf-frame-pointer'):
        if fl in cmake_p and _cc_accepts(fl):
            cflags.append(fl)
    incs = []
    if os.path.isdir(os.path.join(tree.tests, 'include')):
        incs.append('-I' + os.path.join(tree.tests, 'include'))
    if _has_sdt():
        cflags.append('-DHAVE_SYSTEMTAP_SYS_SDT_H')
    else:
        log('note: no <sys/sdt.h> (systemtap-sdt-dev): the old-style USDT '
            'test programs get no probes')
    want_pie = 'testprog_compile(TRUE)' in cmake_p

    jobs_list = []  # (target, [commands], cwd)

    # libraries first (usdt_lib links libusdt_tp)
    libs = sorted(f for f in os.listdir(src_l) if f.endswith(('.c', '.cpp'))) \
        if os.path.isdir(src_l) else []
    for f in libs:
        name = os.path.splitext(f)[0]
        so = os.path.join(out_l, 'lib%s.so' % name)
        cc = 'g++' if f.endswith('.cpp') else 'gcc'
        cmd = [cc, '-g', '-O0', '-fPIC', '-shared'] + incs + \
            [x for x in cflags if x.startswith('-D')] + \
            [os.path.join(src_l, f), '-o', so]
        jobs_list.append(('testlibs/lib%s.so' % name, [cmd, ['chmod', '-x', so]], None))
    _run_builds(jobs_list, jobs, failed, log)
    jobs_list = []

    progs = sorted(f for f in os.listdir(src_p) if f.endswith(('.c', '.cpp'))) \
        if os.path.isdir(src_p) else []
    for f in progs:
        name = os.path.splitext(f)[0]
        cc = 'g++' if f.endswith('.cpp') else 'gcc'
        for pie in ((False, True) if want_pie else (False,)):
            target = name + ('-pie' if pie else '')
            flags = list(cflags)
            if name == 'uprobe_nofp' and 'uprobe_nofp' in cmake_p:
                flags = ['-g', '-O1', '-fomit-frame-pointer',
                         '-fno-optimize-sibling-calls'] + \
                    [x for x in cflags if x.startswith('-D')]
            extra, libs_ = [], ['-lpthread', '-ldl']
            if name == 'usdt_lib':
                extra = ['-fPIC', '-I' + src_l]
                libs_ = ['-L' + out_l, '-lusdt_tp', '-Wl,-rpath,' + out_l] + libs_
            link = ['-pie', '-fpie'] if pie else ['-no-pie']
            cmd = [cc] + flags + extra + incs + link + \
                [os.path.join(src_p, f), '-o', os.path.join(out_p, target)] + libs_
            jobs_list.append(('testprogs/' + target, [cmd], None))
        if name == 'usdt_lib' and 'testlibs/libusdt_tp.so' in failed:
            pass

    for f in sorted(os.listdir(src_p)) if os.path.isdir(src_p) else []:
        name, ext = os.path.splitext(f)
        if ext == '.go':
            if shutil.which('go'):
                jobs_list.append(('testprogs/' + name, [[
                    'go', 'build', '-o', os.path.join(out_p, name),
                    os.path.join(src_p, f)]], src_p))
            else:
                failed['testprogs/' + name] = 'no Go compiler (go)'
        elif ext == '.rs':
            if shutil.which('rustc'):
                jobs_list.append(('testprogs/' + name, [[
                    'rustc', '-C', 'symbol_mangling_version=v0', '-o',
                    os.path.join(out_p, name), os.path.join(src_p, f)]], src_p))
            else:
                failed['testprogs/' + name] = 'no Rust compiler (rustc)'
    _run_builds(jobs_list, jobs, failed, log)

    # the extra artifacts of the newer CMakeLists
    objcopy = shutil.which('llvm-objcopy') or shutil.which('objcopy')
    ext_dbg = os.path.join(out_p, 'external_debug')
    steps = []
    if 'false.bin' in cmake_p and os.path.exists(os.path.join(src_p, 'false.c')):
        o = os.path.join(out_p, 'false.o')
        steps.append(('testprogs/false.bin', [
            ['gcc', '-c', os.path.join(src_p, 'false.c'), '-o', o],
            [objcopy, '-S', '--only-section=.text', '--keep-symbol=main',
             '-O', 'binary', o, os.path.join(out_p, 'false.bin')],
            ['rm', '-f', o]]))
    if 'archive.zip' in cmake_p:
        steps.append(('testprogs/archive.zip', [
            ['zip', '-q', '-0', '-j', os.path.join(out_p, 'archive.zip'),
             os.path.join(out_p, 'true')]]))
    if 'uprobe_test-stripped' in cmake_p:
        os.makedirs(ext_dbg, exist_ok=True)
        exe = os.path.join(out_p, 'uprobe_test')
        steps.append(('testprogs/uprobe_test-stripped', [
            [objcopy, '--only-keep-debug', exe,
             os.path.join(ext_dbg, 'uprobe_test-stripped.debug')],
            [objcopy, '--strip-debug', exe,
             os.path.join(out_p, 'uprobe_test-stripped')]]))
    if 'uprobe_separate_debug-stripped' in cmake_p:
        dbg_dir = os.path.join(out_p, '.debug')
        os.makedirs(dbg_dir, exist_ok=True)
        exe = os.path.join(out_p, 'uprobe_separate_debug')
        dbg = os.path.join(dbg_dir, 'uprobe_separate_debug-stripped.debug')
        stripped = os.path.join(out_p, 'uprobe_separate_debug-stripped')
        steps.append(('testprogs/uprobe_separate_debug-stripped', [
            [objcopy, '--only-keep-debug', exe, dbg],
            [objcopy, '--strip-debug', exe, stripped],
            [objcopy, '--add-gnu-debuglink=' + dbg, stripped]]))
    if '-gsplit-dwarf' in cmake_p:
        for kind in ('dwo', 'dwp'):
            d = os.path.join(ext_dbg, kind)
            os.makedirs(d, exist_ok=True)
            exe = os.path.join(d, 'uprobe_test-split')
            cmds = [['gcc', '-g', '-O0', '-gsplit-dwarf',
                     os.path.join(src_p, 'uprobe_test.c'), '-o', exe]]
            if kind == 'dwp':
                dwp = shutil.which('llvm-dwp') or shutil.which('dwp')
                cmds += [[dwp, '-e', exe, '-o', exe + '.dwp'],
                         ['sh', '-c', 'rm -f %s/*.dwo' % shlex.quote(d)]]
            steps.append(('testprogs/external_debug/%s/uprobe_test-split' % kind,
                          cmds, d))
    for target, cmds, *cwd in steps:
        if any(c[0] is None for c in cmds):
            failed[target] = 'no objcopy/dwp'
            continue
        for c in cmds:
            rc, out = _sh(c, cwd=cwd[0] if cwd else out_p)
            if rc:
                failed[target] = 'build failed: %s' % _last_line(out)
                log('cannot build %s: %s' % (target, _last_line(out)))
                break
    return failed


def _last_line(text):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    for l in lines:
        if 'error' in l:
            return l.strip()[:200]
    return lines[-1].strip()[:200] if lines else ''


def _run_builds(jobs_list, jobs, failed, log):
    from concurrent.futures import ThreadPoolExecutor

    def one(job):
        target, cmds, cwd = job
        for c in cmds:
            rc, out = _sh(c, cwd=cwd)
            if rc:
                return target, _last_line(out)
        return target, None

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        for target, err in ex.map(one, jobs_list):
            if err is not None:
                failed[target] = 'build failed: %s' % err
                log('cannot build %s: %s' % (target, err))


# --------------------------------------------------------------------------
# The probes lock: one suite of real probes at a time on this kernel
# --------------------------------------------------------------------------

class ProbesLock:
    """Held around each test, never for the whole run: by default let go
    after every test. With --hold S the run keeps it across the tests of
    up to S seconds (an acquisition can wait long while other suites run),
    then lets it go. With several jobs the workers share one hold."""

    def __init__(self, path, hold=0.0):
        self.path = path
        self.hold = hold
        self.cond = threading.Condition()
        self.active = 0
        self.draining = False
        self.fd = None
        self.since = 0.0
        self.waited = 0.0  # seconds spent waiting for it

    def acquire(self):
        with self.cond:
            while self.draining:
                self.cond.wait()
            if self.fd is None:
                t0 = time.monotonic()
                self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
                fcntl.flock(self.fd, fcntl.LOCK_EX)
                self.since = time.monotonic()
                self.waited += self.since - t0
            self.active += 1

    def release(self):
        released = False
        with self.cond:
            self.active -= 1
            if time.monotonic() - self.since >= self.hold:
                self.draining = True
            if self.active == 0 and self.draining:
                self._unlock()
                released = True
        if released:
            time.sleep(0.05)  # a suite waiting for it gets its turn now

    def _unlock(self):
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)
        self.fd = None
        self.draining = False
        self.cond.notify_all()

    def finish(self):
        with self.cond:
            if self.fd is not None:
                self._unlock()


# --------------------------------------------------------------------------
# Running one test (as tests/runtime/engine/runner.py of the tree does)
# --------------------------------------------------------------------------

def kernel_version_tuple(s):
    m = re.match(r'[\d.]+', s.strip())
    return tuple(int(x) for x in m.group(0).split('.') if x) if m else ()


def session_processes(sid):
    """(pid, comm, argv0 basename) of the live processes in session sid."""
    found = []
    for d in os.listdir('/proc'):
        if not d.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % d) as f:
                stat = f.read()
            rest = stat[stat.rindex(')') + 2:].split()
            if int(rest[3]) != sid or rest[0] == 'Z':
                continue
            comm = stat[stat.index('(') + 1:stat.rindex(')')]
            with open('/proc/%s/cmdline' % d, 'rb') as f:
                argv0 = f.read().split(b'\0')[0].decode(errors='replace')
            found.append((int(d), comm, os.path.basename(argv0)))
        except (OSError, ValueError, IndexError):
            continue
    return found


def wait_for_process(sid, name, timeout):
    """The newest process of session sid named name (as pidof finds it)."""
    end = time.monotonic() + timeout
    while True:
        procs = [p for p in session_processes(sid)
                 if p[1] == name[:15] or p[2] == name]
        if procs:
            return max(procs)[0]
        if time.monotonic() > end:
            return None
        time.sleep(0.1)


def children_of(pid):
    out = []
    for d in os.listdir('/proc'):
        if d.isdigit():
            try:
                with open('/proc/%s/stat' % d) as f:
                    stat = f.read()
                rest = stat[stat.rindex(')') + 2:].split()
                if int(rest[1]) == pid:
                    out.append(int(d))
            except (OSError, ValueError, IndexError):
                pass
    return out


def killpg(p, sig):
    if p is None or p.poll() is not None:
        return
    try:
        os.killpg(p.pid, sig)  # each was started in a session of its own
    except OSError:
        pass


def translate_newlines(s):
    return s.replace('\r\n', '\n').replace('\r', '\n')


class Ctx:
    pass


def run_test(t, ctx):
    """-> dict(status=PASS|FAIL|SKIP, reason, ...)"""
    r = {'name': t.full, 'suite': t.suite, 'test': t.name}

    def skip(reason):
        r.update(status='SKIP', reason=reason)
        return r

    if t.error:
        return skip('cannot parse the test: %s' % t.error)
    if t.arch and platform.machine().lower() not in t.arch:
        return skip('ARCH %s (this is %s)' % ('|'.join(t.arch), platform.machine()))
    kv = kernel_version_tuple(os.uname().release)
    if t.kernel_min and kernel_version_tuple(t.kernel_min) > kv:
        return skip('MIN_KERNEL %s' % t.kernel_min)
    if t.kernel_max and kernel_version_tuple(t.kernel_max) < kv:
        return skip('MAX_KERNEL %s' % t.kernel_max)
    if t.full in os.environ.get('RUNTIME_TEST_DISABLE', '').split(','):
        return skip('disabled by RUNTIME_TEST_DISABLE')
    if t.skip_if_env_has and os.environ.get(t.skip_if_env_has[0], '') == t.skip_if_env_has[1]:
        return skip('SKIP_IF_ENV_HAS %s=%s' % t.skip_if_env_has)
    for f in sorted(t.features):
        if f not in FEATURE_FACILITY:
            return skip('unknown REQUIRES_FEATURE %s' % f)
        fac = FEATURE_FACILITY[f]
        if fac and not ctx.facilities.get(fac):
            return skip('needs %s (REQUIRES_FEATURE %s)' % (FACILITY_TEXT[fac], f))
    for f in sorted(t.neg_features):
        fac = FEATURE_FACILITY.get(f, 'unknown')
        have = bool(ctx.facilities.get(fac)) if fac else True
        if have:
            return skip('REQUIRES_FEATURE !%s: this machine has it' % f)
    need = needed_mechanisms(t, ctx.work)
    lacking = sorted(m for m in need if not ctx.facilities.get(MECHANISM_FACILITY[m]))
    if lacking:
        return skip('needs %s (%s)' % ('/'.join(lacking),
                                      FACILITY_TEXT[MECHANISM_FACILITY[lacking[0]]]))
    text = ' '.join([t.run, t.prog, t.after, t.setup, t.cleanup] + t.befores + t.requirement)
    if '{{BPFTRACE_AOTRT}}' in text:
        return skip('needs the AOT runtime (bpftrace-aotrt)')
    for ref in re.findall(r'\b((?:testprogs|testlibs)/[\w./-]+)', text):
        ref = ref.rstrip('.')
        if ref in ctx.build_failed:
            return skip('missing %s: %s' % (ref, ctx.build_failed[ref]))
    if t.new_pidns and not t.befores:
        return skip('NEW_PIDNS without BEFORE')

    # REQUIRES: shell commands, with the tracer as `bpftrace` on PATH
    for req in t.requirement:
        try:
            rc = subprocess.call(req, shell=True, cwd=ctx.work, env=ctx.req_env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 timeout=30)
        except subprocess.TimeoutExpired:
            rc = -1
        if rc != 0:
            return skip('REQUIRES %s' % req)

    ctx.lock.acquire()
    try:
        return _run_locked(t, ctx, r)
    finally:
        ctx.lock.release()


def _run_locked(t, ctx, r):
    tmp = tempfile.mkdtemp(prefix='bt-', dir=ctx.tmp)
    befores, after, p = [], None, None
    side_logs = []
    nsenter = []
    output = ''
    timed_out = False
    start = time.monotonic()
    r['command'] = ''

    def side_file(kind):
        path = os.path.join(tmp, '%s.%d' % (kind, len(side_logs)))
        side_logs.append((kind, path))
        return open(path, 'w')

    def fail(reason, category=None):
        r.update(status='FAIL', reason=reason,
                 category=category or reason, output=output)
        return r

    try:
        if t.setup:
            sp = subprocess.run(t.setup, shell=True, cwd=ctx.work,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                universal_newlines=True, errors='replace')
            if sp.returncode:
                output = sp.stdout
                return fail('SETUP failed (%d)' % sp.returncode, 'SETUP failed')

        if t.befores:
            if t.new_pidns:
                with side_file('before') as out:
                    bp = subprocess.Popen(
                        ['unshare', '--fork', '--pid', '--mount-proc', '-r',
                         '--kill-child', '--'] + t.befores[0].split(),
                        cwd=ctx.work, start_new_session=True,
                        stdout=out, stderr=subprocess.STDOUT)
                befores.append(bp)
                end = time.monotonic() + t.timeout
                kids = []
                while not kids and time.monotonic() < end:
                    kids = children_of(bp.pid)
                    if not kids:
                        time.sleep(0.1)
                if not kids:
                    return fail('BEFORE: no new pid namespace in time',
                                'BEFORE did not start')
                nsenter = ['nsenter', '-p', '-m', '-t', str(kids[0])]
                for b in t.befores[1:]:
                    with side_file('before') as out:
                        bp = subprocess.Popen(
                            nsenter + [os.path.abspath(os.path.join(ctx.work, x))
                                       if x.startswith('.') else x for x in b.split()],
                            cwd=ctx.work, start_new_session=True,
                            stdout=out, stderr=subprocess.STDOUT)
                    befores.append(bp)
                    name = os.path.basename(b.strip().split()[0])
                    if wait_for_process(bp.pid, name, t.timeout) is None:
                        return fail('BEFORE %s did not start' % b, 'BEFORE did not start')
                before_pid = None
            else:
                before_pid = None
                for i, b in enumerate(t.befores):
                    with side_file('before') as out:
                        if ctx.tree.new:
                            bp = subprocess.Popen(b.split(), cwd=ctx.work,
                                                  start_new_session=True,
                                                  stdout=out, stderr=subprocess.STDOUT)
                        else:
                            bp = subprocess.Popen(b, shell=True, cwd=ctx.work,
                                                  start_new_session=True,
                                                  stdout=out, stderr=subprocess.STDOUT)
                    befores.append(bp)
                    name = os.path.basename(b.strip().split()[-1])
                    pid = wait_for_process(bp.pid, name, t.timeout)
                    if pid is None:
                        with open(side_logs[-1][1], errors='replace') as f:
                            output = f.read()
                        return fail('BEFORE %s did not start' % b, 'BEFORE did not start')
                    if i == 0:
                        before_pid = pid
        else:
            before_pid = None

        cmd = prepare_call(t, ctx, nsenter)
        if '{{BEFORE_PID}}' in cmd and before_pid is not None:
            cmd = cmd.replace('{{BEFORE_PID}}', str(before_pid))
        r['command'] = cmd

        env = dict(ctx.base_env)
        env['test'] = t.name
        env.update(t.env)
        p = subprocess.Popen(cmd, shell=True, cwd=ctx.work, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             start_new_session=True)
        fd = p.stdout.fileno()
        os.set_blocking(fd, False)
        raw = bytearray()
        line_start = 0
        attached = False
        exact_from = 0
        deadline = time.monotonic() + ctx.tree.attach_timeout
        eof = False
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            if eof:
                # the output is whole; wait for the exit within the deadline
                try:
                    p.wait(timeout=left)
                    break
                except subprocess.TimeoutExpired:
                    timed_out = True
                    break
            rd, _, _ = select.select([fd], [], [], min(left, 0.5))
            if not rd:
                continue
            try:
                data = os.read(fd, 65536)
            except BlockingIOError:
                continue
            if not data:
                eof = True
                continue
            raw += data
            while not attached:
                nl = raw.find(b'\n', line_start)
                if nl < 0:
                    break
                line = bytes(raw[line_start:nl + 1])
                line_start = nl + 1
                if line.replace(b'\r', b'') in (NOTIFY.encode() + b'\n',):
                    attached = True
                    exact_from = line_start
                    deadline = time.monotonic() + t.timeout
                    if t.after:
                        acmd = t.after
                        if nsenter:
                            acmd = ' '.join(nsenter) + ' ' + acmd
                        with side_file('after') as out:
                            after = subprocess.Popen(
                                acmd, shell=True, cwd=ctx.work,
                                start_new_session=True, stdout=out,
                                stderr=subprocess.STDOUT)
        if timed_out:
            # a last chance: SIGTERM (the tracer prints its maps and exits),
            # then whatever it wrote
            killpg(p, signal.SIGTERM)
            grace = time.monotonic() + (1 if ctx.tree.new else 5)
            while time.monotonic() < grace:
                rd, _, _ = select.select([fd], [], [], max(0, grace - time.monotonic()))
                if not rd:
                    break
                try:
                    data = os.read(fd, 65536)
                except BlockingIOError:
                    continue
                if not data:
                    break
                raw += data
            killpg(p, signal.SIGKILL)
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        if ctx.tree.new and t.has_exact_expect and attached:
            raw = raw[exact_from:]
        output = translate_newlines(raw.decode('utf-8', errors='backslashreplace'))
        r['attached'] = attached
    finally:
        for bp in befores:
            if ctx.tree.new:
                try:
                    bp.wait(timeout=1)
                except subprocess.TimeoutExpired:
                    pass
            killpg(bp, signal.SIGKILL)
        if p is not None:
            killpg(p, signal.SIGKILL)
        if after is not None:
            try:
                after.wait(timeout=1)
            except subprocess.TimeoutExpired:
                pass
            killpg(after, signal.SIGKILL)
        for x in befores + ([after] if after else []) + ([p] if p else []):
            try:
                x.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        if p is not None and p.stdout:
            p.stdout.close()
        r['seconds'] = round(time.monotonic() - start, 2)
        sides = []
        for kind, path in side_logs:
            text = _read(path).strip()
            if text:
                sides.append('%s: %s' % (kind, text[-2000:]))
        r['side_output'] = '\n'.join(sides)
        shutil.rmtree(tmp, ignore_errors=True)

    if t.cleanup:
        sp = subprocess.run(t.cleanup, shell=True, cwd=ctx.work,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            universal_newlines=True, errors='replace')
        if sp.returncode:
            return fail('CLEANUP failed (%d): %s' % (sp.returncode, sp.stdout.strip()[:200]),
                        'CLEANUP failed')

    r['exit'] = p.returncode
    failed = check(t, output, timed_out, ctx)
    if timed_out:
        if failed:
            return fail('timeout after %ds%s; %s' % (
                t.timeout if r.get('attached') else ctx.tree.attach_timeout,
                '' if r.get('attached') else ' (never attached)', failed[0]),
                categorize(output, 'timeout'))
        r.update(status='PASS', reason='(timed out, the output matched)')
        return r
    want = t.return_code if ctx.tree.new else 0
    if p.returncode != want and not t.will_fail:
        return fail('exit status %s, expected %d' % (p.returncode, want),
                    categorize(output, 'exit status %s' % p.returncode))
    if ctx.tree.new and p.returncode == 0 and t.will_fail:
        return fail('exit status 0, expected a failure (WILL_FAIL)',
                    'exit status 0 where an error was expected')
    if failed:
        return fail('; '.join(failed), categorize(output, 'output differs'))
    r.update(status='PASS', reason='')
    return r


def prepare_call(t, ctx, nsenter):
    tracer = ctx.tracer_link
    pre = (' '.join(nsenter) + ' ') if nsenter else ''
    if t.run:
        # bpftrace's newer runner adds --verify-llvm-ir, a flag of its LLVM
        # back end only: not passed on
        return pre + t.run.replace('{{BPFTRACE}}', tracer)
    if ctx.tree.new:
        use_json = '-q -f json ' if t.expects and t.expects[0].mode == 'json' else ''
        prog = t.prog.replace("'", "'\\''")
        return pre + "%s %s-e '%s'" % (tracer, use_json, prog)
    return "%s -e '%s'" % (tracer, t.prog)


def check(t, output, timed_out, ctx):
    """-> the list of unmet expectations (empty: all met)."""
    bad = []
    for e in t.expects:
        try:
            if e.mode == 'regex0':
                # bpftrace 0.17's runner: re.M, but not on its timeout path
                ok = re.search(e.expect, output, 0 if timed_out else re.M)
                if not ok:
                    bad.append('no match for EXPECT %s' % e.expect)
            elif e.mode == 'text':
                if not re.search('^\\s*%s\\s*$' % re.escape(e.expect), output, re.M):
                    bad.append('no line %r' % e.expect)
            elif e.mode == 'text_none':
                if re.search('^\\s*%s\\s*$' % re.escape(e.expect), output, re.M):
                    bad.append('a line %r (EXPECT_NONE)' % e.expect)
            elif e.mode == 'regex':
                if not re.search(e.expect, output, re.M):
                    bad.append('no match for EXPECT_REGEX %s' % e.expect)
            elif e.mode == 'regex_none':
                if re.search(e.expect, output, re.M):
                    bad.append('a match for EXPECT_REGEX_NONE %s' % e.expect)
            elif e.mode == 'file':
                with open(os.path.join(ctx.work, e.expect)) as f:
                    want = f.read().strip()
                if t.localize_ts >= 0:
                    want = time.strftime(want, time.localtime(t.localize_ts))
                if output.strip() != want:
                    bad.append('output differs from EXPECT_FILE %s' % e.expect)
            elif e.mode == 'json':
                if not json_equal(os.path.join(ctx.work, e.expect), output):
                    bad.append('JSON differs from EXPECT_JSON %s' % e.expect)
        except (re.error, OSError, ValueError) as err:
            bad.append('cannot check %s: %s' % (e.mode, err))
    return bad


def json_equal(path, output):
    with open(path) as f:
        want = f.read()
    lines = output.strip().splitlines()
    try:
        if path.endswith('.ndjson'):
            wl = want.strip().splitlines()
            return len(wl) == len(lines) and all(
                json.loads(a) == json.loads(b) for a, b in zip(wl, lines))
        if len(lines) != 1:
            return False
        return json.loads(output.strip()) == json.loads(want)
    except ValueError:
        return False


# --------------------------------------------------------------------------
# Failure categories: the first error the tracer printed, generalised
# --------------------------------------------------------------------------

ERROR_RE = re.compile(r'(?:^|:\s)ERROR:\s*(.*)$|^(?:\S*/)?(?:lantern|bpftrace):\s+(.*)$',
                      re.M)


def categorize(output, fallback):
    m = None
    for m in ERROR_RE.finditer(output):
        # bpftrace 0.17 says this on every run: not the error
        if 'RLIMIT_MEMLOCK' not in m.group(0):
            break
    else:
        m = None
    if not m:
        if fallback.startswith('exit status'):
            last = [l for l in output.strip().splitlines()
                    if l.strip() and l.strip() != NOTIFY]
            if last:
                return '%s: %s' % (fallback, _generalise(last[-1].strip())[:100])
        return fallback
    msg = (m.group(1) or m.group(2) or '').strip()
    # the text that the caret line under the echoed source points at
    rest = output[m.end():].split('\n')
    near = ''
    if len(rest) >= 3 and re.match(r'^\s*[~^]+\s*$', rest[2]):
        src, caret = rest[1], rest[2]
        col = len(caret) - len(caret.lstrip())
        width = len(caret.strip())
        before = src[:col].rstrip()
        # the last keyword-like word before it: `let $x`, `for ($kv :`
        words = re.findall(r'(?<![$@\w])([A-Za-z_]\w*)', before)
        near = src[col:col + width].strip()
        if words and ('unexpected' in msg or 'syntax' in msg):
            near = '%s %s' % (words[-1], near)
    msg = re.sub(r'^E\d+:\s*', '', msg)
    keep = re.match(r'(unknown|unsupported|not supported|invalid|unrecognized)',
                    msg, re.I)
    msg = _generalise(msg, quoted=not keep)[:110]
    if near and ('unexpected' in msg or 'syntax' in msg):
        w = near.split()[0]
        if re.match(r'^[A-Za-z_]\w*$', w):
            msg += " [after '%s']" % w
    return 'error: ' + msg


def _generalise(msg, quoted=True):
    msg = re.sub(r'/(?:tmp|proc)/[^\s\'"]*', 'PATH', msg)
    if quoted:
        msg = re.sub(r"'[^']*'", "'X'", msg)
        msg = re.sub(r'"[^"]*"', '"X"', msg)
    msg = re.sub(r'\b\d+\b', 'N', msg)
    msg = re.sub(r'\bstring\[N\]|\b[us]?int(8|16|32|64)\b', 'TYPE', msg)
    msg = re.sub(r'\b(struct|union|enum) \w+', r'\1 S', msg)
    return msg


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(
        description="Run bpftrace's runtime tests against lantern.")
    ap.add_argument('src', metavar='BPFTRACE_SRC',
                    help='a bpftrace source tree (tests/runtime, tests/testprogs)')
    ap.add_argument('--lantern', default=os.path.join(ROOT, 'build', 'lantern'),
                    help='the tracer to test (default: build/lantern); '
                    'any bpftrace-compatible binary, e.g. /usr/bin/bpftrace')
    ap.add_argument('--filter', default='',
                    help='run only the tests whose SUITE.NAME matches this regex')
    ap.add_argument('--jobs', type=int, default=1,
                    help='tests run at once (default 1; more can interfere)')
    ap.add_argument('--dialect', choices=['0.17', '0.26'],
                    help='set LANTERN_DIALECT for the tracer')
    ap.add_argument('--out', help='results directory (default: '
                    'bench/results/bpftrace-tests/TRACER-on-TREE)')
    ap.add_argument('--workdir', help='build the test programs here and keep '
                    'them (default: a temporary directory, removed)')
    ap.add_argument('--have', action='append', default=[],
                    choices=['kprobes', 'tracing', 'hardware', 'btf', 'aot'],
                    help='treat this kernel facility as present')
    ap.add_argument('--lack', action='append', default=[],
                    choices=['kprobes', 'tracing', 'hardware', 'btf', 'aot'],
                    help='treat this kernel facility as absent')
    ap.add_argument('--hold', type=float, default=0.0, metavar='S',
                    help='keep the probes lock across tests for up to S '
                    'seconds (default 0: let it go after every test)')
    ap.add_argument('--list', action='store_true',
                    help='list the tests and what would be skipped; run nothing')
    ap.add_argument('-v', '--verbose', action='store_true',
                    help='print the output of each failure as it happens')
    ap.add_argument('--resummarize', action='store_true',
                    help='recompute the categories and the summary of the '
                    'results in --out (after a change of this script); run nothing')
    args = ap.parse_args()

    tree = Tree(args.src)
    if args.resummarize:
        return resummarize(tree, args)
    tracer = os.path.abspath(args.lantern) if os.sep in args.lantern \
        else (shutil.which(args.lantern) or args.lantern)
    if not os.access(tracer, os.X_OK):
        sys.exit('%s: not an executable' % args.lantern)
    if os.geteuid() != 0 and not args.list:
        sys.exit('root is needed: the tests attach real probes')

    label = '%s-on-%s' % (os.path.basename(tracer),
                          os.path.basename(tree.src.rstrip('/')))
    out = os.path.abspath(args.out or os.path.join(ROOT, 'bench', 'results',
                                                   'bpftrace-tests', label))
    os.makedirs(out, exist_ok=True)

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    tests = read_tests(tree)
    if args.filter:
        rx = re.compile(args.filter)
        tests = [t for t in tests if rx.search(t.full)]

    ctx = Ctx()
    ctx.tree = tree
    ctx.facilities = detect_facilities(args.have, args.lack)
    own_work = not args.workdir
    ctx.work = os.path.abspath(args.workdir) if args.workdir else \
        tempfile.mkdtemp(prefix='bpftrace-tests-')
    ctx.tmp = os.path.join(ctx.work, 'tmp')
    os.makedirs(ctx.tmp, exist_ok=True)
    try:
        link = os.path.join(ctx.work, 'runtime')
        if os.path.islink(link):
            os.unlink(link)
        os.symlink(tree.runtime, link)
        # the tracer runs as `bpftrace` (tests look for it by name: pidof
        # bpftrace, comm == "bpftrace"); `bpftrace` on PATH for REQUIRES
        bindir = os.path.join(ctx.work, 'bin')
        os.makedirs(bindir, exist_ok=True)
        ctx.tracer_link = os.path.join(bindir, 'bpftrace')
        if os.path.lexists(ctx.tracer_link):
            os.unlink(ctx.tracer_link)
        os.symlink(tracer, ctx.tracer_link)
        path = bindir + ':' + os.environ.get('PATH', '/usr/sbin:/usr/bin:/sbin:/bin')
        ctx.req_env = dict(os.environ, PATH=path)
        ctx.base_env = {
            '__BPFTRACE_NOTIFY_PROBES_ATTACHED': '1',
            '__BPFTRACE_NOTIFY_AOT_PORTABILITY_DISABLED': '1',
            'PATH': path,
        }
        if not tree.new:
            ctx.base_env['BPFTRACE_VERIFY_LLVM_IR'] = '1'
        if args.dialect:
            ctx.base_env['LANTERN_DIALECT'] = args.dialect
        ctx.lock = ProbesLock(LOCK_PATH, args.hold)

        log('tree %s: %d tests, format %s, attach timeout %ds, default '
            'timeout %ds' % (tree.src, len(tests), tree.fmt,
                             tree.attach_timeout, tree.default_timeout))
        log('tracer %s; facilities: %s' % (tracer, ', '.join(
            '%s=%s' % (k, 'yes' if v else 'no')
            for k, v in sorted(ctx.facilities.items()))))
        if args.list:
            ctx.build_failed = {}
            for t in tests:
                need = needed_mechanisms(t, ctx.work)
                print('%-60s %s' % (t.full[:60], ' '.join(sorted(need))))
            return 0
        t0 = time.monotonic()
        log('building the test programs in %s' % ctx.work)
        ctx.build_failed = build_testprogs(tree, ctx.work, os.cpu_count() or 2, log)
        log('built in %.0fs; %d could not be built' % (time.monotonic() - t0,
                                                       len(ctx.build_failed)))

        results = [None] * len(tests)
        counter = {'done': 0}
        plock = threading.Lock()

        def one(i):
            t = tests[i]
            try:
                res = run_test(t, ctx)
            except Exception as e:  # a runner bug: report, go on
                res = {'name': t.full, 'status': 'FAIL',
                       'reason': 'runner error: %r' % e, 'category': 'runner error'}
            results[i] = res
            with plock:
                counter['done'] += 1
                line = '[%d/%d] %-4s %s' % (counter['done'], len(tests),
                                            res['status'], t.full)
                if res['status'] != 'PASS' and res.get('reason'):
                    line += '  -- ' + res['reason'][:150]
                log(line)
                if args.verbose and res['status'] == 'FAIL':
                    log('    ' + res.get('output', '')[-1500:].replace('\n', '\n    '))

        t0 = time.monotonic()
        if args.jobs <= 1:
            for i in range(len(tests)):
                one(i)
        else:
            from concurrent.futures import ThreadPoolExecutor
            with ThreadPoolExecutor(max_workers=args.jobs) as ex:
                list(ex.map(one, range(len(tests))))
        ctx.lock.finish()
        elapsed = time.monotonic() - t0
        summary = write_results(out, results, tree, tracer, args, elapsed,
                                ctx.build_failed, ctx.lock.waited)
        print(summary)
        return 0
    finally:
        if own_work:
            shutil.rmtree(ctx.work, ignore_errors=True)


def write_results(out, results, tree, tracer, args, elapsed, build_failed,
                  lock_wait):
    n = collections.Counter(r['status'] for r in results)
    ran = n['PASS'] + n['FAIL']
    with open(os.path.join(out, 'results.txt'), 'w') as f:
        for r in results:
            f.write('%s %s%s\n' % (r['status'], r['name'],
                                   ('  -- ' + r['reason']) if r.get('reason') else ''))
    with open(os.path.join(out, 'failures.txt'), 'w') as f:
        for r in results:
            if r['status'] != 'FAIL':
                continue
            f.write('=== %s\n' % r['name'])
            f.write('command: %s\n' % r.get('command', ''))
            f.write('reason: %s\n' % r['reason'])
            f.write('category: %s\n' % r.get('category', ''))
            outp = r.get('output', '')
            lines = outp.splitlines()
            if len(lines) > 60:
                lines = lines[:30] + ['[... %d lines ...]' % (len(lines) - 50)] + lines[-20:]
            f.write('output:\n%s\n' % '\n'.join('  | ' + l[:300] for l in lines))
            if r.get('side_output'):
                f.write('BEFORE/AFTER output:\n%s\n' % '\n'.join(
                    '  | ' + l[:300] for l in r['side_output'].splitlines()[:20]))
            f.write('\n')
    with open(os.path.join(out, 'results.json'), 'w') as f:
        json.dump({'tree': tree.src, 'tracer': tracer, 'dialect': args.dialect,
                   'filter': args.filter, 'seconds': round(elapsed),
                   'lock_wait': round(lock_wait),
                   'build_failed': build_failed, 'results': results}, f, indent=1)

    skips = collections.Counter(_skip_group(r['reason']) for r in results
                                if r['status'] == 'SKIP')
    cats = collections.Counter(r.get('category', '?') for r in results
                               if r['status'] == 'FAIL')
    lines = []
    lines.append('bpftrace runtime tests: %s' % tree.src)
    lines.append('tracer: %s%s' % (tracer, ('  (LANTERN_DIALECT=%s)' % args.dialect)
                                   if args.dialect else ''))
    if args.filter:
        lines.append('filter: %s' % args.filter)
    lines.append('tests: %d, run %d; %.0f s, of which %.0f s waiting for %s' % (
        len(results), ran, elapsed, lock_wait, LOCK_PATH))
    lines.append('')
    lines.append('passed %d, failed %d, skipped %d; pass rate %.1f%% (%d/%d run)' % (
        n['PASS'], n['FAIL'], n['SKIP'], 100.0 * n['PASS'] / ran if ran else 0,
        n['PASS'], ran))
    if build_failed:
        lines.append('')
        lines.append('not built:')
        for k, v in sorted(build_failed.items()):
            lines.append('  %s: %s' % (k, v))
    lines.append('')
    lines.append('skipped, by reason:')
    for k, v in skips.most_common():
        lines.append('  %4d  %s' % (v, k))
    lines.append('')
    lines.append('failed, by category:')
    for k, v in cats.most_common():
        lines.append('  %4d  %s' % (v, k))
    tail = ['', 'results: %s/{summary.txt,results.txt,failures.txt,results.json}' % out]
    with open(os.path.join(out, 'summary.txt'), 'w') as f:
        f.write('\n'.join(lines + tail) + '\n')
    shown = len(lines) - len(cats) + 40
    if len(cats) > 40:  # printed: the 40 largest
        lines = lines[:shown] + ['  (%d more categories in summary.txt)' % (len(cats) - 40)]
    return '\n'.join(lines + tail) + '\n'


def resummarize(tree, args):
    out = args.out
    with open(os.path.join(out, 'results.json')) as f:
        d = json.load(f)
    for r in d['results']:
        if r['status'] != 'FAIL' or 'output' not in r:
            continue
        reason = r.get('reason', '')
        m = re.match(r'(exit status \S+),', reason)
        if reason.startswith('timeout'):
            fb = 'timeout'
        elif m:
            fb = m.group(1)
        elif reason.startswith(('SETUP', 'CLEANUP', 'BEFORE', 'exit status 0')):
            continue
        else:
            fb = 'output differs'
        r['category'] = categorize(r['output'], fb)
    args.dialect = d.get('dialect')
    args.filter = d.get('filter') or ''
    print(write_results(out, d['results'], tree, d['tracer'], args,
                        d.get('seconds', 0), d.get('build_failed', {}),
                        d.get('lock_wait', 0)))
    return 0


def _skip_group(reason):
    if reason.startswith('REQUIRES '):
        return reason
    if reason.startswith('ARCH'):
        return 'ARCH (another architecture)'
    return re.sub(r' \(REQUIRES_FEATURE [^)]*\)', ' (REQUIRES_FEATURE)', reason)


if __name__ == '__main__':
    sys.exit(main())

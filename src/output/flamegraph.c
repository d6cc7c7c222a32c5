// SPDX-License-Identifier: MIT
/*
 * The flame graph: sort the stacks, merge them into a tree laid out in
 * preorder, then write one <g> per drawn node and the script. See
 * flamegraph.h for what the document holds.
 */
#include "output/flamegraph.h"
#include "output/escape.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define FG_WIDTH   1200
#define FG_XPAD	   10
#define FG_FRAME_H 16	/* per level; the rect is one pixel less */
#define FG_TOP	   56	/* title, controls and legend */
#define FG_BOTTOM  30	/* the details line */
#define FG_MIN_PX  0.1	/* narrower nodes are not drawn */
#define FG_CHAR_W  7.08 /* average width of a 12 px character */
#define FG_KSUFFIX "_[k]"
#define FG_REPLACE "\xef\xbf\xbd" /* U+FFFD */

struct fg_node {
	const char *name; /* the frame as given; NULL for "all" */
	uint64_t count;	  /* samples of the node and its descendants */
	uint64_t x;	  /* the node's offset from the left, in samples */
	uint64_t next;	  /* where its next child starts, in samples */
	size_t parent;
	size_t depth;
	bool drawn;
};

/* The nodes in preorder: a node before its children, siblings in order. */
struct fg_tree {
	struct fg_node *nodes;
	size_t len, cap;
	uint64_t total;
	size_t levels; /* 1 + the depth of the deepest drawn node */
	size_t ndrawn;
};

static const char fg_style[] =
	"<defs><linearGradient id=\"bg\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\">"
	"<stop offset=\"5%\" stop-color=\"rgb(238,238,238)\"/>"
	"<stop offset=\"95%\" stop-color=\"rgb(238,238,176)\"/></linearGradient></defs>\n"
	"<style type=\"text/css\"><![CDATA[\n"
	"text { font-family: Verdana, Arial, sans-serif; font-size: 12px; fill: rgb(0,0,0); }\n"
	"#title { font-size: 17px; text-anchor: middle; }\n"
	".ctl { cursor: pointer; fill: rgb(0,0,160); }\n"
	".note { fill: rgb(90,90,90); }\n"
	".f { cursor: pointer; }\n"
	".f text { pointer-events: none; }\n"
	".f:hover rect { stroke: rgb(0,0,0); stroke-width: 0.5; }\n"
	"]]></style>\n";

/* The controls and the legend: swatches are paths, so that every <rect> is a frame's. */
static const char fg_controls[] =
	"<text id=\"unzoom\" class=\"ctl\" x=\"10\" y=\"24\" style=\"display:none\">"
	"Reset Zoom</text>\n"
	"<text id=\"search\" class=\"ctl\" x=\"1190\" y=\"24\" text-anchor=\"end\">Search</text>\n"
	"<path d=\"M10 35h10v10h-10z\" fill=\"rgb(235,130,30)\"/>"
	"<text x=\"24\" y=\"44\">user</text>\n"
	"<path d=\"M64 35h10v10h-10z\" fill=\"rgb(50,170,215)\"/>"
	"<text x=\"78\" y=\"44\">kernel</text>\n"
	"<text class=\"note\" x=\"130\" y=\"44\">click a frame to zoom, Ctrl-F to search</text>\n";

/* Hover, zoom and search; it reads each frame's data-x, data-w and data-d. */
static const char fg_script[] =
	"(function () {\n"
	"\t'use strict';\n"
	"\tvar W = 1200, XPAD = 10, CW = 7.08, HL = 'rgb(230,0,230)';\n"
	"\tvar frames = [], total = 1, term = null;\n"
	"\tvar all = document.getElementById('frames');\n"
	"\tvar details = document.getElementById('details');\n"
	"\tvar matched = document.getElementById('matched');\n"
	"\tvar unzoom = document.getElementById('unzoom');\n"
	"\tvar searchbtn = document.getElementById('search');\n"
	"\n"
	"\tfunction fit(name, w) {\n"
	"\t\tvar n = Math.floor((w - 6) / CW), c, k;\n"
	"\t\tif (n < 3)\n"
	"\t\t\treturn '';\n"
	"\t\tif (name.length <= n)\n"
	"\t\t\treturn name;\n"
	"\t\tc = n - 2;\n"
	"\t\tk = name.charCodeAt(c);\n"
	"\t\tif (k >= 0xdc00 && k <= 0xdfff)\n"
	"\t\t\tc--;\n"
	"\t\treturn name.substring(0, c) + '..';\n"
	"\t}\n"
	"\tfunction place(f, x, w) {\n"
	"\t\tf.rect.setAttribute('x', x.toFixed(2));\n"
	"\t\tf.rect.setAttribute('width', w.toFixed(2));\n"
	"\t\tf.text.setAttribute('x', (x + 3).toFixed(2));\n"
	"\t\tf.text.textContent = fit(f.name, w);\n"
	"\t}\n"
	"\tfunction each(fn) {\n"
	"\t\tfor (var i = 0; i < frames.length; i++)\n"
	"\t\t\tfn(frames[i]);\n"
	"\t}\n"
	"\tfunction reset() {\n"
	"\t\tvar sc = (W - 2 * XPAD) / total;\n"
	"\t\tunzoom.style.display = 'none';\n"
	"\t\teach(function (f) {\n"
	"\t\t\tf.g.style.display = '';\n"
	"\t\t\tf.rect.removeAttribute('fill-opacity');\n"
	"\t\t\tplace(f, XPAD + f.x * sc, f.w * sc);\n"
	"\t\t});\n"
	"\t}\n"
	"\tfunction zoom(z) {\n"
	"\t\tvar sc = (W - 2 * XPAD) / z.w;\n"
	"\t\tif (z.d === 0)\n"
	"\t\t\treturn reset();\n"
	"\t\tunzoom.style.display = '';\n"
	"\t\teach(function (f) {\n"
	"\t\t\tif (f.d >= z.d && f.x >= z.x && f.x + f.w <= z.x + z.w) {\n"
	"\t\t\t\tf.g.style.display = '';\n"
	"\t\t\t\tf.rect.removeAttribute('fill-opacity');\n"
	"\t\t\t\tplace(f, XPAD + (f.x - z.x) * sc, f.w * sc);\n"
	"\t\t\t} else if (f.d < z.d && f.x <= z.x && f.x + f.w >= z.x + z.w) {\n"
	"\t\t\t\tf.g.style.display = '';\n"
	"\t\t\t\tf.rect.setAttribute('fill-opacity', '0.5');\n"
	"\t\t\t\tplace(f, XPAD, W - 2 * XPAD);\n"
	"\t\t\t} else {\n"
	"\t\t\t\tf.g.style.display = 'none';\n"
	"\t\t\t}\n"
	"\t\t});\n"
	"\t}\n"
	"\tfunction clearSearch() {\n"
	"\t\tterm = null;\n"
	"\t\teach(function (f) {\n"
	"\t\t\tf.rect.setAttribute('fill', f.fill);\n"
	"\t\t});\n"
	"\t\tmatched.textContent = '';\n"
	"\t\tsearchbtn.textContent = 'Search';\n"
	"\t}\n"
	"\tfunction search() {\n"
	"\t\tvar t = window.prompt('Search frames (regular expression):', term || '');\n"
	"\t\tvar re, hits = [], sum = 0, end = 0, i;\n"
	"\t\tif (t === null)\n"
	"\t\t\treturn;\n"
	"\t\tif (t === '')\n"
	"\t\t\treturn clearSearch();\n"
	"\t\ttry {\n"
	"\t\t\tre = new RegExp(t);\n"
	"\t\t} catch (e) {\n"
	"\t\t\twindow.alert('Not a regular expression: ' + t);\n"
	"\t\t\treturn;\n"
	"\t\t}\n"
	"\t\tterm = t;\n"
	"\t\teach(function (f) {\n"
	"\t\t\tvar hit = f.d > 0 && re.test(f.name);\n"
	"\t\t\tf.rect.setAttribute('fill', hit ? HL : f.fill);\n"
	"\t\t\tif (hit)\n"
	"\t\t\t\thits.push(f);\n"
	"\t\t});\n"
	"\t\thits.sort(function (a, b) {\n"
	"\t\t\treturn a.x - b.x || b.w - a.w;\n"
	"\t\t});\n"
	"\t\tfor (i = 0; i < hits.length; i++) {\n"
	"\t\t\tif (hits[i].x >= end) {\n"
	"\t\t\t\tsum += hits[i].w;\n"
	"\t\t\t\tend = hits[i].x + hits[i].w;\n"
	"\t\t\t}\n"
	"\t\t}\n"
	"\t\tmatched.textContent = 'Matched: ' + (100 * sum / total).toFixed(1) + '%';\n"
	"\t\tsearchbtn.textContent = 'Clear Search';\n"
	"\t}\n"
	"\tfunction frameOf(e) {\n"
	"\t\tfor (; e && e !== all; e = e.parentNode)\n"
	"\t\t\tif (e.fg)\n"
	"\t\t\t\treturn e.fg;\n"
	"\t\treturn null;\n"
	"\t}\n"
	"\tfunction init() {\n"
	"\t\tvar gs = all.getElementsByTagName('g'), i, g, f, t;\n"
	"\t\tfor (i = 0; i < gs.length; i++) {\n"
	"\t\t\tg = gs[i];\n"
	"\t\t\tt = g.getElementsByTagName('title')[0].textContent;\n"
	"\t\t\tf = {\n"
	"\t\t\t\tg: g, title: t, name: t.substring(0, t.lastIndexOf(' (')),\n"
	"\t\t\t\trect: g.getElementsByTagName('rect')[0],\n"
	"\t\t\t\ttext: g.getElementsByTagName('text')[0],\n"
	"\t\t\t\tx: +g.getAttribute('data-x'), w: +g.getAttribute('data-w'),\n"
	"\t\t\t\td: +g.getAttribute('data-d')\n"
	"\t\t\t};\n"
	"\t\t\tf.fill = f.rect.getAttribute('fill');\n"
	"\t\t\tif (f.d === 0)\n"
	"\t\t\t\ttotal = f.w;\n"
	"\t\t\tg.fg = f;\n"
	"\t\t\tframes.push(f);\n"
	"\t\t}\n"
	"\t}\n"
	"\tinit();\n"
	"\tall.addEventListener('mouseover', function (e) {\n"
	"\t\tvar f = frameOf(e.target);\n"
	"\t\tif (f)\n"
	"\t\t\tdetails.textContent = f.title;\n"
	"\t});\n"
	"\tall.addEventListener('mouseout', function () {\n"
	"\t\tdetails.textContent = '';\n"
	"\t});\n"
	"\tall.addEventListener('click', function (e) {\n"
	"\t\tvar f = frameOf(e.target);\n"
	"\t\tif (f)\n"
	"\t\t\tzoom(f);\n"
	"\t});\n"
	"\tunzoom.addEventListener('click', reset);\n"
	"\tsearchbtn.addEventListener('click', function () {\n"
	"\t\tif (term === null)\n"
	"\t\t\tsearch();\n"
	"\t\telse\n"
	"\t\t\tclearSearch();\n"
	"\t});\n"
	"\twindow.addEventListener('keydown', function (e) {\n"
	"\t\tif ((e.ctrlKey || e.metaKey) && (e.keyCode === 70 || e.key === 'f')) {\n"
	"\t\t\te.preventDefault();\n"
	"\t\t\tsearch();\n"
	"\t\t} else if (e.keyCode === 27) {\n"
	"\t\t\tclearSearch();\n"
	"\t\t}\n"
	"\t});\n"
	"})();\n";

static const char *frame_name(const char *f)
{
	return f ? f : "[unknown]";
}

/* Frame by frame in byte order; a stack before the stacks it is a prefix of. */
static int cmp_stack(const void *a, const void *b)
{
	const struct fg_stack *x = *(const struct fg_stack *const *)a;
	const struct fg_stack *y = *(const struct fg_stack *const *)b;
	size_t i;
	int c;

	for (i = 0; i < x->nframes && i < y->nframes; i++) {
		c = strcmp(frame_name(x->frames[i]), frame_name(y->frames[i]));
		if (c)
			return c;
	}
	return (x->nframes > i) - (y->nframes > i);
}

static size_t add_node(struct fg_tree *t, const char *name, size_t parent)
{
	struct fg_node *nd;

	if (t->len == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->nodes = util_xrealloc(t->nodes, t->cap * sizeof(*t->nodes));
	}
	nd = &t->nodes[t->len];
	memset(nd, 0, sizeof(*nd));
	nd->name = name;
	nd->parent = parent;
	nd->depth = t->len ? t->nodes[parent].depth + 1 : 0;
	return t->len++;
}

/*
 * The stacks with samples, sorted, so that the stacks under one node are
 * next to each other: each stack shares a prefix with the one before and
 * adds the rest of its frames as new nodes, which gives the tree in
 * preorder with the children of each node in byte order.
 */
static void build_tree(struct fg_tree *t, const struct fg_stack *stacks, size_t n)
{
	const struct fg_stack **ord = util_xcalloc(n ? n : 1, sizeof(*ord));
	size_t *path, maxf = 0, m = 0, prev = 0, i, d, common;

	for (i = 0; i < n; i++) {
		if (!stacks[i].count)
			continue;
		ord[m++] = &stacks[i];
		maxf = MAX(maxf, stacks[i].nframes);
		t->total += stacks[i].count;
	}
	qsort(ord, m, sizeof(*ord), cmp_stack);
	path = util_xcalloc(maxf + 1, sizeof(*path));
	path[0] = add_node(t, NULL, 0);
	for (i = 0; i < m; i++) {
		const struct fg_stack *s = ord[i];

		common = 0;
		while (common < prev && common < s->nframes &&
		       !strcmp(t->nodes[path[common + 1]].name, frame_name(s->frames[common])))
			common++;
		for (d = common; d < s->nframes; d++)
			path[d + 1] = add_node(t, frame_name(s->frames[d]), path[d]);
		for (d = 0; d <= s->nframes; d++)
			t->nodes[path[d]].count += s->count;
		prev = s->nframes;
	}
	free(path);
	free(ord);
}

/* Offsets (children left to right from their parent's), and which nodes are drawn. */
static void layout(struct fg_tree *t)
{
	double scale = (FG_WIDTH - 2 * FG_XPAD) / (double)t->total;
	size_t i;

	for (i = 0; i < t->len; i++) {
		struct fg_node *nd = &t->nodes[i];

		nd->drawn = true;
		if (i) {
			struct fg_node *p = &t->nodes[nd->parent];

			nd->x = p->next;
			p->next += nd->count;
			nd->drawn = p->drawn && (double)nd->count * scale >= FG_MIN_PX;
		}
		nd->next = nd->x;
		if (nd->drawn) {
			t->ndrawn++;
			t->levels = MAX(t->levels, nd->depth + 1);
		}
	}
}

/*
 * How many bytes at s (n left) make one character fit for XML text: a
 * well-formed UTF-8 sequence that is no control character (C0, DEL, C1),
 * surrogate or U+FFFE/U+FFFF. 0 when s starts none.
 */
static size_t char_len(const unsigned char *s, size_t n)
{
	size_t len;

	if (s[0] < 0x80)
		return s[0] >= 0x20 && s[0] != 0x7f;
	len = out_utf8_len(s, n);
	if (len == 2 && s[0] == 0xc2 && s[1] < 0xa0)
		return 0; /* C1 controls */
	if (len == 3 && s[0] == 0xef && s[1] == 0xbf && s[2] >= 0xbe)
		return 0; /* U+FFFE, U+FFFF */
	return len;
}

/* s's n bytes as clean UTF-8: every byte that starts no character becomes U+FFFD. */
static void put_clean(struct strbuf *out, const char *s, size_t n)
{
	size_t i = 0, len;

	while (i < n) {
		len = char_len((const unsigned char *)s + i, n - i);
		if (len)
			sb_putn(out, s + i, len);
		else
			sb_puts(out, FG_REPLACE);
		i += len ? len : 1;
	}
}

/* Clean text with XML's five special characters escaped. */
static void put_xml(struct strbuf *out, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		switch (s[i]) {
		case '&':
			sb_puts(out, "&amp;");
			break;
		case '<':
			sb_puts(out, "&lt;");
			break;
		case '>':
			sb_puts(out, "&gt;");
			break;
		case '"':
			sb_puts(out, "&quot;");
			break;
		case '\'':
			sb_puts(out, "&#39;");
			break;
		default:
			sb_putc(out, s[i]);
		}
	}
}

/* The bytes of the first max characters of clean text s; *chars: how many it has. */
static size_t utf8_prefix(const char *s, size_t n, size_t max, size_t *chars)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++) {
		if (((unsigned char)s[i] & 0xc0) == 0x80)
			continue;
		if (c == max)
			break;
		c++;
	}
	*chars = c;
	return i;
}

/* The clean name cut to fit w pixels ("nam.."), or nothing when "x.." does not fit. */
static void put_label(struct strbuf *out, const char *name, size_t n, double w)
{
	size_t fit = w > 6 ? (size_t)((w - 6) / FG_CHAR_W) : 0, chars, len;

	if (fit < 3)
		return;
	len = utf8_prefix(name, n, fit, &chars);
	if (len == n) {
		put_xml(out, name, n);
		return;
	}
	put_xml(out, name, utf8_prefix(name, n, fit - 2, &chars));
	sb_puts(out, "..");
}

/* A hue from the name: warm for user frames, blue to teal for kernel frames. */
static void put_colour(struct strbuf *out, const char *name, size_t n, bool kernel)
{
	uint32_t h = 2166136261u, a, b, c;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)name[i];
		h *= 16777619u;
	}
	h ^= h >> 15;
	h *= 0x2c1b3c6du;
	h ^= h >> 12;
	a = h & 0xff;
	b = (h >> 8) & 0xff;
	c = (h >> 16) & 0xff;
	if (kernel)
		sb_printf(out, "rgb(%u,%u,%u)", 20 + a * 70 / 255, 130 + b * 90 / 255,
			  180 + c * 70 / 255);
	else
		sb_printf(out, "rgb(%u,%u,%u)", 205 + a * 50 / 255, 40 + b * 190 / 255,
			  c * 55 / 255);
}

/* One node's <g>: title, rect and label. name is scratch space. */
static void put_node(struct strbuf *out, const struct fg_tree *t, const struct fg_node *nd,
		     size_t height, struct strbuf *name)
{
	double scale = (FG_WIDTH - 2 * FG_XPAD) / (double)t->total;
	double x = FG_XPAD + (double)nd->x * scale, w = (double)nd->count * scale;
	size_t y = height - FG_BOTTOM - (nd->depth + 1) * FG_FRAME_H, len;
	bool kernel = false;

	sb_reset(name);
	if (nd->name) {
		len = strlen(nd->name);
		kernel = len >= strlen(FG_KSUFFIX) &&
			 !strcmp(nd->name + len - strlen(FG_KSUFFIX), FG_KSUFFIX);
		put_clean(name, nd->name, kernel ? len - strlen(FG_KSUFFIX) : len);
	} else {
		sb_puts(name, "all");
	}
	sb_printf(out,
		  "<g class=\"f\" data-x=\"%" PRIu64 "\" data-w=\"%" PRIu64 "\" data-d=\"%zu\">",
		  nd->x, nd->count, nd->depth);
	sb_puts(out, "<title>");
	put_xml(out, sb_str(name), name->len);
	sb_printf(out, " (%" PRIu64 " samples, %.2f%%)</title>", nd->count,
		  100.0 * (double)nd->count / (double)t->total);
	sb_printf(out, "<rect x=\"%.2f\" y=\"%zu\" width=\"%.2f\" height=\"%d\" rx=\"2\" fill=\"",
		  x, y, w, FG_FRAME_H - 1);
	if (nd->name)
		put_colour(out, sb_str(name), name->len, kernel);
	else
		sb_puts(out, "rgb(170,170,170)");
	sb_printf(out, "\"/><text x=\"%.2f\" y=\"%.1f\">", x + 3, (double)y + 11.5);
	put_label(out, sb_str(name), name->len, w);
	sb_puts(out, "</text></g>\n");
}

static void put_head(struct strbuf *out, const char *title, size_t height, struct strbuf *tmp)
{
	sb_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
	sb_printf(out,
		  "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
		  "height=\"%zu\" viewBox=\"0 0 %d %zu\">\n",
		  FG_WIDTH, height, FG_WIDTH, height);
	sb_puts(out, fg_style);
	sb_printf(out, "<path d=\"M0 0H%dV%zuH0Z\" fill=\"url(#bg)\"/>\n", FG_WIDTH, height);
	sb_printf(out, "<text id=\"title\" x=\"%d\" y=\"24\">", FG_WIDTH / 2);
	sb_reset(tmp);
	put_clean(tmp, title, strlen(title));
	put_xml(out, sb_str(tmp), tmp->len);
	sb_puts(out, "</text>\n");
	sb_puts(out, fg_controls);
}

static void put_tail(struct strbuf *out, size_t height)
{
	sb_printf(out, "<text id=\"details\" x=\"%d\" y=\"%zu\"></text>\n", FG_XPAD, height - 10);
	sb_printf(out, "<text id=\"matched\" x=\"%d\" y=\"%zu\" text-anchor=\"end\"></text>\n",
		  FG_WIDTH - FG_XPAD, height - 10);
	sb_puts(out, "<script type=\"text/ecmascript\"><![CDATA[\n");
	sb_puts(out, fg_script);
	sb_puts(out, "]]></script>\n</svg>\n");
}

size_t out_flamegraph_svg(struct strbuf *out, const struct fg_stack *stacks, size_t n,
		      const char *title)
{
	struct fg_tree t = {0};
	struct strbuf tmp = {0};
	size_t i, height, drawn;

	build_tree(&t, stacks, n);
	if (!t.total) {
		free(t.nodes);
		return 0;
	}
	layout(&t);
	height = FG_TOP + t.levels * FG_FRAME_H + FG_BOTTOM;
	put_head(out, title ? title : "Flame Graph", height, &tmp);
	sb_puts(out, "<g id=\"frames\">\n");
	for (i = 0; i < t.len; i++)
		if (t.nodes[i].drawn)
			put_node(out, &t, &t.nodes[i], height, &tmp);
	sb_puts(out, "</g>\n");
	put_tail(out, height);
	drawn = t.ndrawn;
	sb_free(&tmp);
	free(t.nodes);
	return drawn;
}

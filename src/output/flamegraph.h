/* SPDX-License-Identifier: MIT */
/*
 * Folded stacks as an interactive SVG flame graph.
 *
 * The stacks merge into a tree: the children of a node are keyed by the
 * frame's name (the name as given, "_[k]" included) and sorted by strcmp(),
 * byte order, as flamegraph.pl sorts its folded lines. Each node is as wide
 * as its samples; the root "all" spans the whole width at the bottom and
 * the stacks grow upward from it.
 *
 * The document, 1200 px wide and 16 px per level plus margins high, holds:
 *
 *   - the background as a <path> and the legend swatches as <path>s, so
 *     that the only <rect> elements are the frames': the document has
 *     exactly as many <rect> elements as out_flamegraph_svg() returns;
 *   - one <g class="f" data-x data-w data-d> per drawn node, "all"
 *     included: data-x is the node's offset and data-w its width, both in
 *     samples, data-d its depth ("all" is 0). The <g> holds
 *     <title>NAME (N samples, P%)</title>, the <rect>, and a <text> with
 *     the name cut to fit with ".." (empty when even "x.." does not fit);
 *   - an embedded script: hovering a frame shows its title on the details
 *     line at the bottom; clicking a frame zooms to it (it fills the width,
 *     its ancestors stay drawn faded at full width, the rest is hidden;
 *     clicking "all" or "Reset Zoom" undoes it); "Search" or Ctrl-F asks
 *     for a regular expression, paints the matching frames ("all" aside) in
 *     magenta and shows "Matched: X%" of all samples (nested matches
 *     counted once); "Clear Search" or Escape undoes it.
 *
 * Colours: user frames warm (red to yellow), kernel frames (names ending
 * in "_[k]", stackcollapse-perf's convention, drawn without the suffix)
 * blue to teal, each hue a hash of the name; "all" grey.
 *
 * Nodes narrower than 0.1 px are not drawn (nor their descendants, which
 * are no wider), so zooming into a frame does not bring them back; they
 * are not counted. Names are written as UTF-8: bytes that are not valid
 * UTF-8 and control characters (C0, DEL, C1) become U+FFFD, and & < > " '
 * are escaped, so any name gives well-formed XML. The output depends only
 * on the input (not on the order of identical stacks).
 */
#ifndef LANTERN_OUTPUT_FLAMEGRAPH_H
#define LANTERN_OUTPUT_FLAMEGRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"

/* One folded stack: frames root first, and how many samples it had. */
struct fg_stack {
	const char *const *frames;
	size_t nframes;
	uint64_t count;
};

/*
 * The stacks as an SVG flame graph into out. Frames that end in "_[k]"
 * are kernel frames (stackcollapse-perf's convention); they are drawn in
 * the kernel colour and shown without the suffix. Stacks may repeat (the
 * same frames twice): their counts add up. Returns the number of frame
 * rectangles drawn (0 when there is nothing to draw: total count 0 or no
 * stacks; then nothing is written). A NULL frame reads as "[unknown]", a
 * NULL title as "Flame Graph". A stack with no frames counts toward "all"
 * only. The counts must sum to less than 2^64.
 */
size_t out_flamegraph_svg(struct strbuf *out, const struct fg_stack *stacks, size_t n,
		      const char *title);

#endif

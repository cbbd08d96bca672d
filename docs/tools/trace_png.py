#!/usr/bin/env python3
"""trace_png.py: draws an lsk trace (lsk_trace_write, `lsk demo --trace`,
`lsk bench --trace`) as a PNG, with the Python 3 standard library alone.

    python3 docs/tools/trace_png.py trace.json out.png [--width 1200]
                                    [--window FROM:TO]

One horizontal lane per queue (a trace-event "tid", labelled with its
thread_name, the queue's name), each command a filled rectangle from its
start to its end, coloured by its name (the kernel's, or "write", "read",
"fill", ...: the same name gets the same colour in every picture), a time
axis in milliseconds from the first command, and a legend of the names
with their count and total time, the longest first. --window FROM:TO
draws only that part of the run (ms after the first command).

It reads Chrome trace-event JSON in general (an object with "traceEvents",
or a bare array): complete events ("ph": "X") with "ts" and "dur" in
microseconds, and "thread_name" metadata; other events are ignored.
Text is drawn with a built-in 5x7 bitmap font (printable ASCII; other
characters show as '?').
"""

import argparse
import colorsys
import json
import math
import struct
import sys
import zlib

# ---- The font: printable ASCII, 5 columns of 7 bits each (bit 0 the top
# row), the classic 5x7 LCD glyphs; g, j, p, q and y reach two rows lower. ----
FONT = {
    " ": (0x00, 0x00, 0x00, 0x00, 0x00), "!": (0x00, 0x00, 0x5F, 0x00, 0x00),
    '"': (0x00, 0x07, 0x00, 0x07, 0x00), "#": (0x14, 0x7F, 0x14, 0x7F, 0x14),
    "$": (0x24, 0x2A, 0x7F, 0x2A, 0x12), "%": (0x23, 0x13, 0x08, 0x64, 0x62),
    "&": (0x36, 0x49, 0x55, 0x22, 0x50), "'": (0x00, 0x05, 0x03, 0x00, 0x00),
    "(": (0x00, 0x1C, 0x22, 0x41, 0x00), ")": (0x00, 0x41, 0x22, 0x1C, 0x00),
    "*": (0x14, 0x08, 0x3E, 0x08, 0x14), "+": (0x08, 0x08, 0x3E, 0x08, 0x08),
    ",": (0x00, 0x50, 0x30, 0x00, 0x00), "-": (0x08, 0x08, 0x08, 0x08, 0x08),
    ".": (0x00, 0x60, 0x60, 0x00, 0x00), "/": (0x20, 0x10, 0x08, 0x04, 0x02),
    "0": (0x3E, 0x51, 0x49, 0x45, 0x3E), "1": (0x00, 0x42, 0x7F, 0x40, 0x00),
    "2": (0x42, 0x61, 0x51, 0x49, 0x46), "3": (0x21, 0x41, 0x45, 0x4B, 0x31),
    "4": (0x18, 0x14, 0x12, 0x7F, 0x10), "5": (0x27, 0x45, 0x45, 0x45, 0x39),
    "6": (0x3C, 0x4A, 0x49, 0x49, 0x30), "7": (0x01, 0x71, 0x09, 0x05, 0x03),
    "8": (0x36, 0x49, 0x49, 0x49, 0x36), "9": (0x06, 0x49, 0x49, 0x29, 0x1E),
    ":": (0x00, 0x36, 0x36, 0x00, 0x00), ";": (0x00, 0x56, 0x36, 0x00, 0x00),
    "<": (0x08, 0x14, 0x22, 0x41, 0x00), "=": (0x14, 0x14, 0x14, 0x14, 0x14),
    ">": (0x00, 0x41, 0x22, 0x14, 0x08), "?": (0x02, 0x01, 0x51, 0x09, 0x06),
    "@": (0x32, 0x49, 0x79, 0x41, 0x3E), "A": (0x7E, 0x11, 0x11, 0x11, 0x7E),
    "B": (0x7F, 0x49, 0x49, 0x49, 0x36), "C": (0x3E, 0x41, 0x41, 0x41, 0x22),
    "D": (0x7F, 0x41, 0x41, 0x22, 0x1C), "E": (0x7F, 0x49, 0x49, 0x49, 0x41),
    "F": (0x7F, 0x09, 0x09, 0x09, 0x01), "G": (0x3E, 0x41, 0x49, 0x49, 0x7A),
    "H": (0x7F, 0x08, 0x08, 0x08, 0x7F), "I": (0x00, 0x41, 0x7F, 0x41, 0x00),
    "J": (0x20, 0x40, 0x41, 0x3F, 0x01), "K": (0x7F, 0x08, 0x14, 0x22, 0x41),
    "L": (0x7F, 0x40, 0x40, 0x40, 0x40), "M": (0x7F, 0x02, 0x0C, 0x02, 0x7F),
    "N": (0x7F, 0x04, 0x08, 0x10, 0x7F), "O": (0x3E, 0x41, 0x41, 0x41, 0x3E),
    "P": (0x7F, 0x09, 0x09, 0x09, 0x06), "Q": (0x3E, 0x41, 0x51, 0x21, 0x5E),
    "R": (0x7F, 0x09, 0x19, 0x29, 0x46), "S": (0x46, 0x49, 0x49, 0x49, 0x31),
    "T": (0x01, 0x01, 0x7F, 0x01, 0x01), "U": (0x3F, 0x40, 0x40, 0x40, 0x3F),
    "V": (0x1F, 0x20, 0x40, 0x20, 0x1F), "W": (0x3F, 0x40, 0x38, 0x40, 0x3F),
    "X": (0x63, 0x14, 0x08, 0x14, 0x63), "Y": (0x07, 0x08, 0x70, 0x08, 0x07),
    "Z": (0x61, 0x51, 0x49, 0x45, 0x43), "[": (0x00, 0x7F, 0x41, 0x41, 0x00),
    "\\": (0x02, 0x04, 0x08, 0x10, 0x20), "]": (0x00, 0x41, 0x41, 0x7F, 0x00),
    "^": (0x04, 0x02, 0x01, 0x02, 0x04), "_": (0x40, 0x40, 0x40, 0x40, 0x40),
    "`": (0x00, 0x01, 0x02, 0x04, 0x00), "a": (0x20, 0x54, 0x54, 0x54, 0x78),
    "b": (0x7F, 0x48, 0x44, 0x44, 0x38), "c": (0x38, 0x44, 0x44, 0x44, 0x20),
    "d": (0x38, 0x44, 0x44, 0x48, 0x7F), "e": (0x38, 0x54, 0x54, 0x54, 0x18),
    "f": (0x08, 0x7E, 0x09, 0x01, 0x02), "g": (0x0C, 0x52, 0x52, 0x52, 0x3E),
    "h": (0x7F, 0x08, 0x04, 0x04, 0x78), "i": (0x00, 0x44, 0x7D, 0x40, 0x00),
    "j": (0x20, 0x40, 0x44, 0x3D, 0x00), "k": (0x7F, 0x10, 0x28, 0x44, 0x00),
    "l": (0x00, 0x41, 0x7F, 0x40, 0x00), "m": (0x7C, 0x04, 0x18, 0x04, 0x78),
    "n": (0x7C, 0x08, 0x04, 0x04, 0x78), "o": (0x38, 0x44, 0x44, 0x44, 0x38),
    "p": (0x7C, 0x14, 0x14, 0x14, 0x08), "q": (0x08, 0x14, 0x14, 0x18, 0x7C),
    "r": (0x7C, 0x08, 0x04, 0x04, 0x08), "s": (0x48, 0x54, 0x54, 0x54, 0x20),
    "t": (0x04, 0x3F, 0x44, 0x40, 0x20), "u": (0x3C, 0x40, 0x40, 0x20, 0x7C),
    "v": (0x1C, 0x20, 0x40, 0x20, 0x1C), "w": (0x3C, 0x40, 0x30, 0x40, 0x3C),
    "x": (0x44, 0x28, 0x10, 0x28, 0x44), "y": (0x0C, 0x50, 0x50, 0x50, 0x3C),
    "z": (0x44, 0x64, 0x54, 0x4C, 0x44), "{": (0x00, 0x08, 0x36, 0x41, 0x00),
    "|": (0x00, 0x00, 0x7F, 0x00, 0x00), "}": (0x00, 0x41, 0x36, 0x08, 0x00),
    "~": (0x08, 0x04, 0x08, 0x10, 0x08),
}
# Descenders: two rows more (bits 7 and 8), below the baseline of row 6.
FONT.update({
    "g": (0x138, 0x144, 0x144, 0x144, 0x0FC), "j": (0x080, 0x100, 0x100, 0x0FD, 0x000),
    "p": (0x1FC, 0x024, 0x024, 0x024, 0x018), "q": (0x018, 0x024, 0x024, 0x024, 0x1FC),
    "y": (0x13C, 0x140, 0x140, 0x140, 0x0FC),
})

SCALE = 2                 # pixels per font dot
CHAR_W = 6 * SCALE        # advance: 5 dots and a space
CHAR_H = 7 * SCALE
LANE_H = 30
LANE_GAP = 6
PAD = 12

WHITE = (255, 255, 255)
INK = (32, 32, 32)
GREY = (120, 120, 120)
LANE_BG = ((244, 244, 246), (234, 235, 240))


class Canvas:
    def __init__(self, width, height):
        self.w, self.h = width, height
        self.px = bytearray(WHITE * (width * height))

    def rect(self, x0, y0, x1, y1, rgb):
        """Fills [x0, x1) x [y0, y1), clipped."""
        x0, x1 = max(0, int(x0)), min(self.w, int(x1))
        y0, y1 = max(0, int(y0)), min(self.h, int(y1))
        if x0 >= x1 or y0 >= y1:
            return
        row = bytes(rgb) * (x1 - x0)
        for y in range(y0, y1):
            at = (y * self.w + x0) * 3
            self.px[at:at + len(row)] = row

    def text(self, x, y, s, rgb=INK):
        """s at (x, y), its top left; returns the x after it."""
        for ch in s:
            cols = FONT.get(ch, FONT["?"])
            for cx, bits in enumerate(cols):
                for cy in range(9):
                    if bits >> cy & 1:
                        self.rect(x + cx * SCALE, y + cy * SCALE,
                                  x + (cx + 1) * SCALE, y + (cy + 1) * SCALE, rgb)
            x += CHAR_W
        return x

    def png(self):
        raw = bytearray()
        stride = self.w * 3
        for y in range(self.h):
            raw.append(0)  # filter: none
            raw += self.px[y * stride:(y + 1) * stride]

        def chunk(kind, data):
            body = kind + data
            return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

        ihdr = struct.pack(">IIBBBBB", self.w, self.h, 8, 2, 0, 0, 0)  # 8-bit RGB
        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) +
                chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))


def ascii_text(s, most=None):
    """s with characters the font lacks as '?', cut to most characters."""
    s = "".join(c if c in FONT else "?" for c in str(s))
    if most is not None and len(s) > most:
        s = s[:max(1, most - 2)] + ".."
    return s


# lsk's transfers and markers: fixed colours, greys and earth tones, so that
# the kernels' brighter hues stand out.
FIXED = {
    "write": (176, 96, 64), "read": (90, 120, 150), "fill": (200, 160, 60),
    "copy": (120, 140, 90), "map": (150, 150, 150), "unmap": (110, 110, 110),
    "marker": (40, 40, 40),
}
# The kernels' colours: 30 hues in two shades.
SLOTS = [tuple(int(c * 255) for c in colorsys.hsv_to_rgb(h / 30.0, 0.70, v))
         for v in (0.90, 0.62) for h in range(0, 30)]


def colours(names):
    """A colour per name: fixed for lsk's transfer names; else the slot
    a CRC of the name picks, so that a name keeps its colour from picture
    to picture. Where two names of one picture pick the same slot, the
    later in sorted order takes the next free one."""
    out, used = {}, set()
    for name in sorted(names):
        if name in FIXED:
            out[name] = FIXED[name]
            continue
        k = zlib.crc32(name.encode("utf-8")) % len(SLOTS)
        for probe in range(len(SLOTS)):
            if (k + probe * 7) % len(SLOTS) not in used:  # 7: a step to a far hue
                k = (k + probe * 7) % len(SLOTS)
                break
        used.add(k)
        out[name] = SLOTS[k]
    return out


def darker(rgb):
    return tuple(int(c * 0.6) for c in rgb)


def nice_step(span, most_ticks):
    """The tick step: 1, 2 or 5 times a power of ten, at most most_ticks
    steps over span."""
    if span <= 0:
        return 1.0
    raw = span / max(1, most_ticks)
    p = 10.0 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * p >= raw:
            return m * p
    return 10 * p


def fmt_ms(v, step):
    decimals = max(0, -int(math.floor(math.log10(step)))) if step < 1 else 0
    return "%.*f" % (decimals, v)


def load(path):
    with open(path, "r", encoding="utf-8") as f:
        doc = json.load(f)
    events = doc.get("traceEvents") if isinstance(doc, dict) else doc
    if not isinstance(events, list):
        raise ValueError("no traceEvents list")
    names, order, slices = {}, {}, []
    for ev in events:
        if not isinstance(ev, dict):
            continue
        lane = (ev.get("pid", 0), ev.get("tid", 0))
        ph = ev.get("ph")
        args = ev.get("args") or {}
        if ph == "M" and ev.get("name") == "thread_name":
            names[lane] = str(args.get("name", ""))
        elif ph == "M" and ev.get("name") == "thread_sort_index":
            order[lane] = args.get("sort_index", 0)
        elif ph == "X":
            ts, dur = float(ev.get("ts", 0)), float(ev.get("dur", 0))
            slices.append((lane, str(ev.get("name", "?")), ts, max(0.0, dur)))
    return names, order, slices


def render(path, out, width, window=None):
    names, order, slices = load(path)
    lanes = sorted(set(names) | {s[0] for s in slices},
                   key=lambda ln: (order.get(ln, ln[1]), ln))
    pids = {ln[0] for ln in lanes}

    def label(ln):
        text = names.get(ln, "tid %s" % ln[1])
        return ("%s: %s" % (ln[0], text)) if len(pids) > 1 else text

    # Colours from every name of the file, so that a --window agrees.
    colour = colours({s[1] for s in slices}).__getitem__
    # Times on the axis are from the first command; --window shows a part.
    first = min((s[2] for s in slices), default=0.0)
    last = max((s[2] + s[3] for s in slices), default=first)
    if window:
        t0, t1 = first + window[0] * 1e3, first + window[1] * 1e3
        slices = [s for s in slices if s[2] + s[3] >= t0 and s[2] <= t1]
    else:
        t0, t1 = first, last
    span_us = max(t1 - t0, 1e-3)

    # Per name: count and total, for the legend (the longest first).
    totals = {}
    for _, name, _, dur in slices:
        c, t = totals.get(name, (0, 0.0))
        totals[name] = (c + 1, t + dur)
    legend = sorted(totals.items(), key=lambda kv: (-kv[1][1], kv[0]))
    most_legend = 48
    entries = ["%s  %d x, %.3f ms" % (ascii_text(n, 40), c, t / 1e3)
               for n, (c, t) in legend[:most_legend]]
    if len(legend) > most_legend:
        entries.append("... and %d more names" % (len(legend) - most_legend))

    label_chars = min(max((len(ascii_text(label(ln))) for ln in lanes), default=4),
                      max(8, (width // 3) // CHAR_W))
    left = PAD + label_chars * CHAR_W + PAD
    right = width - PAD - CHAR_W * 3
    plot_w = max(1, right - left)

    title_h = CHAR_H + 2 * PAD
    lanes_top = title_h
    lanes_h = max(1, len(lanes)) * (LANE_H + LANE_GAP)
    axis_top = lanes_top + lanes_h
    axis_h = 6 + 4 + CHAR_H + 6 + CHAR_H + PAD
    swatch = CHAR_H
    entry_w = max((len(e) for e in entries), default=0) * CHAR_W + swatch + 8 + 2 * PAD
    per_row = max(1, (width - 2 * PAD) // max(1, entry_w))
    legend_rows = (len(entries) + per_row - 1) // per_row
    legend_top = axis_top + axis_h
    height = legend_top + legend_rows * (CHAR_H + 8) + PAD

    cv = Canvas(width, height)
    title = "%s: %d commands on %d queue%s, %.3f ms" % (
        ascii_text(path.split("/")[-1], 60), len(slices), len(lanes),
        "" if len(lanes) == 1 else "s", span_us / 1e3)
    cv.text(PAD, PAD, ascii_text(title, (width - 2 * PAD) // CHAR_W))

    # The ticks of the time axis, in ms from the first command.
    lo_ms, span_ms = (t0 - first) / 1e3, span_us / 1e3
    step = nice_step(span_ms, max(2, plot_w // (CHAR_W * 9)))
    k0 = int(math.ceil(lo_ms / step - 1e-9))
    ticks = [k * step for k in range(k0, int((lo_ms + span_ms) / step * (1 + 1e-9)) + 1)]

    def x_of(us):  # clipped to the plot, for --window
        return left + min(max(us - t0, 0.0), span_us) / span_us * plot_w

    # Lanes and their labels, faint grid lines at the ticks, then slices.
    for i, ln in enumerate(lanes):
        y = lanes_top + i * (LANE_H + LANE_GAP)
        cv.rect(left, y, right, y + LANE_H, LANE_BG[i % 2])
        cv.text(PAD, y + (LANE_H - CHAR_H) // 2, ascii_text(label(ln), label_chars))
    for v in ticks:
        x = left + int(round((v - lo_ms) / span_ms * plot_w))
        cv.rect(x, lanes_top, x + 1, axis_top, (214, 214, 220))
    index = {ln: i for i, ln in enumerate(lanes)}
    for ln, name, ts, dur in slices:
        y = lanes_top + index[ln] * (LANE_H + LANE_GAP)
        x0 = int(math.floor(x_of(ts)))
        x1 = max(x0 + 1, int(math.ceil(x_of(ts + dur))))  # at least one pixel
        rgb = colour(name)
        cv.rect(x0, y + 3, x1, y + LANE_H - 3, rgb)
        if x1 - x0 >= 4:  # edges, so that neighbours of one name stay apart
            cv.rect(x0, y + 3, x0 + 1, y + LANE_H - 3, darker(rgb))
            cv.rect(x1 - 1, y + 3, x1, y + LANE_H - 3, darker(rgb))

    # The axis.
    cv.rect(left, axis_top, right + 1, axis_top + 1, INK)
    for v in ticks:
        x = left + int(round((v - lo_ms) / span_ms * plot_w))
        cv.rect(x, axis_top, x + 1, axis_top + 6, INK)
        text = fmt_ms(v, step)
        cv.text(x - len(text) * CHAR_W // 2, axis_top + 10, text, GREY)
    unit = "time (ms)"
    cv.text(left + (plot_w - len(unit) * CHAR_W) // 2, axis_top + 10 + CHAR_H + 6, unit)

    # The legend.
    for i, text in enumerate(entries):
        r, c = divmod(i, per_row)
        x = PAD + c * entry_w
        y = legend_top + r * (CHAR_H + 8)
        if i < len(legend):
            rgb = colour(legend[i][0])
            cv.rect(x, y, x + swatch, y + swatch, rgb)
            cv.rect(x, y, x + swatch, y + 1, darker(rgb))
        cv.text(x + swatch + 8, y, ascii_text(text, (width - x - swatch - 8 - PAD) // CHAR_W))

    with open(out, "wb") as f:
        f.write(cv.png())
    return width, height, len(slices), len(lanes)


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Draw an lsk trace (Chrome trace-event JSON) as a PNG timeline.")
    ap.add_argument("trace", help="the trace file (lsk_trace_write, lsk demo/bench --trace)")
    ap.add_argument("png", help="the picture to write")
    ap.add_argument("--width", type=int, default=1200, help="width in pixels (default 1200)")
    ap.add_argument("--window", metavar="FROM:TO",
                    help="draw only from FROM to TO ms after the first command")
    a = ap.parse_args(argv)
    if not 400 <= a.width <= 20000:
        ap.error("--width: from 400 to 20000 pixels")
    window = None
    if a.window:
        try:
            window = tuple(float(x) for x in a.window.split(":"))
        except ValueError:
            window = ()
        if len(window) != 2 or not 0 <= window[0] < window[1]:
            ap.error("--window: FROM:TO in ms, 0 <= FROM < TO, such as 400:450")
    try:
        w, h, n, q = render(a.trace, a.png, a.width, window)
    except (OSError, ValueError, TypeError) as e:  # json.JSONDecodeError: a ValueError
        print("trace_png.py: %s: %s" % (a.trace, e), file=sys.stderr)
        return 1
    print("trace_png.py: %s: %d commands on %d queue%s, %dx%d" % (a.png, n, q, "" if q == 1 else "s", w, h))
    return 0


if __name__ == "__main__":
    sys.exit(main())

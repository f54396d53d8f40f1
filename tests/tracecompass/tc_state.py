#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Run a Trace Compass XML state provider over a trace's events, as Trace
Compass would, and print the state system it builds.

usage: tc_state.py XML [--id ID] (--babeltrace TEXT | --script FILE)

The events come either from babeltrace2's text output of a trace, written
with

    babeltrace2 --clock-cycles --names=all --no-delta TRACE > TEXT

or from a hand-written script, one event a line (# starts a comment):

    TS PROVIDER:EVENT [NAME=VALUE]...

where NAME is a field of the event, or vpid, vtid or procname for the
contexts; an enumeration's VALUE is written LABEL/NUMBER (fallback=
watermark/2), a string may be quoted.

Printed: one JSON object, {"PATH": [[TS, VALUE], ...]} for every
attribute of the state system (PATH its names joined by "/"), each
change in time order, a value null where the attribute was cleared.

What is interpreted is the part of Trace Compass's data-driven state
provider that the analyses of tracecompass/ use: definedValue, location,
eventHandler (by exact event name), stateChange (an assignment, or
if/then/else), stateAttribute (constant, eventField, location),
stateValue (null, int, long, string, eventField with forcedType, a
$NAME of a definedValue, increment), and conditions (field or
stateAttribute against a stateValue, or two stateValues; eq, ne, lt, le,
gt, ge; and, or, not).  Anything else is refused (exit 2) rather than
guessed.  The rules are those of Trace Compass's data-driven model as
its source reads (its fsm/model classes; no Trace Compass runs here):

  - a path element is its value as text; a field or context the event
    lacks leaves that state change out;
  - a comparison of two numbers is numeric; anything else compares the
    two values' texts, and an enumeration's text is its label;
  - increment adds the value to the attribute's ongoing one (none: 0),
    which must be of the same type: every analysis here increments an
    attribute with values of one type only.
"""
import json
import re
import sys
import xml.etree.ElementTree as ET

CONTEXT_NAMES = {"vpid", "vtid", "procname"}


class Enum:
    """An enumeration field: its label, and its number."""

    def __init__(self, label, number):
        self.label = label
        self.number = number

    def __str__(self):
        return self.label


class Refused(Exception):
    pass


# --- babeltrace2 text ---------------------------------------------------

TOKEN = re.compile(r'''\s*(?:
    (?P<str>"(?:[^"\\]|\\.)*")
  | (?P<num>-?(?:0x[0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?))
  | (?P<word>[A-Za-z_<][\w:.<>-]*)
  | (?P<punct>[{}()\[\]=,:])
)''', re.X)


def tokens(text):
    pos = 0
    out = []
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            if text[pos:].strip() == "":
                break
            raise ValueError("cannot read %r" % text[pos:pos + 40])
        pos = m.end()
        for kind in ("str", "num", "word", "punct"):
            if m.group(kind) is not None:
                out.append((kind, m.group(kind)))
                break
    return out


class Parser:
    def __init__(self, toks):
        self.toks = toks
        self.i = 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None)

    def take(self, want=None):
        tok = self.peek()
        if want is not None and tok[1] != want:
            raise ValueError("expected %r, got %r" % (want, tok[1]))
        self.i += 1
        return tok

    def members(self, closing):
        """NAME = VALUE, ... up to @closing (None: the end)."""
        d = {}
        while self.peek()[1] != closing:
            name = self.take()[1]
            self.take("=")
            d[name] = self.value()
            if self.peek()[1] == ",":
                self.take()
        if closing is not None:
            self.take(closing)
        return d

    def value(self):
        kind, tok = self.take()
        if kind == "str":
            return json.loads(tok)
        if kind == "num":
            if tok.startswith(("0x", "-0x")):
                return int(tok, 16)
            return float(tok) if "." in tok or "e" in tok.lower() else int(tok)
        if tok == "{":
            return self.members("}")
        if tok == "[":
            items = []
            while self.peek()[1] != "]":
                self.take("[")
                self.take()
                self.take("]")
                self.take("=")
                items.append(self.value())
                if self.peek()[1] == ",":
                    self.take()
            self.take("]")
            return items
        if tok == "(":
            # ( "label" : container = N ), ( { "a", "b" } : ... ),
            # ( <unknown> : container = N )
            labels = []
            while self.peek()[1] != ":":
                k, t = self.take()
                if k == "str":
                    labels.append(json.loads(t))
            self.take(":")
            self.take("container")
            self.take("=")
            number = self.value()
            self.take(")")
            return Enum(labels[0] if len(labels) == 1 else str(number),
                        number)
        return tok


def babeltrace_events(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            top = Parser(tokens(line)).members(None)
            ev = {"ts": int(top["timestamp"]), "name": top["name"],
                  "fields": dict(top.get("event.fields", {}))}
            ctx = {}
            for scope in ("stream.event.context", "event.common_context",
                          "event.specific_context"):
                ctx.update(top.get(scope, {}))
            ev["context"] = ctx
            ev["cpu"] = top.get("stream.packet.context", {}).get("cpu_id")
            yield ev


def script_events(path):
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            words = line.split()
            ev = {"ts": int(words[0]), "name": words[1], "fields": {},
                  "context": {}, "cpu": 0}
            for w in words[2:]:
                name, _, val = w.partition("=")
                if val.startswith('"') and val.endswith('"'):
                    v = val[1:-1]
                elif re.fullmatch(r"-?(0x[0-9a-fA-F]+|\d+)", val):
                    v = int(val, 0)
                elif re.fullmatch(r"[^/]+/-?\d+", val):
                    label, num = val.rsplit("/", 1)
                    v = Enum(label, int(num))
                else:
                    v = val
                (ev["context"] if name in CONTEXT_NAMES
                 else ev["fields"])[name] = v
            yield ev


# --- the state provider -----------------------------------------------

MISSING = object()


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class StateProvider:
    def __init__(self, elem):
        self.elem = elem
        self.defined = {d.attrib["name"]: d.attrib["value"]
                        for d in elem.findall("definedValue")}
        self.locations = {l.attrib["id"]: l for l in elem.findall("location")}
        self.handlers = {}
        for h in elem.findall("eventHandler"):
            self.handlers.setdefault(h.attrib["eventName"], []).append(h)
            if "*" in h.attrib["eventName"]:
                raise Refused("event name patterns are not interpreted")
        self.current = {}       # path tuple -> value
        self.kinds = {}         # path tuple -> the value's Java type
        self.history = {}       # path tuple -> [[ts, value], ...]
        self.skipped = 0

    # values
    def resolve_defined(self, text):
        if text.startswith("$"):
            if text[1:] not in self.defined:
                raise Refused("undefined value %s" % text)
            return self.defined[text[1:]]
        return text

    @staticmethod
    def field(ev, name):
        if name.startswith("context."):
            return ev["context"].get(name[len("context."):].lstrip("_"),
                                     MISSING)
        if name.lower() == "cpu":
            return ev["cpu"]
        if name.lower() == "timestamp":
            return ev["ts"]
        return ev["fields"].get(name, MISSING)

    def state_value(self, sv, ev):
        t = sv.attrib["type"]
        for a in ("stack", "update", "mappingGroup", "scriptEngine"):
            if a in sv.attrib:
                raise Refused("stateValue %s is not interpreted" % a)
        if t == "null":
            return None
        if t in ("int", "long"):
            return int(self.resolve_defined(sv.attrib["value"]))
        if t == "string":
            return self.resolve_defined(sv.attrib["value"])
        if t == "eventField":
            v = self.field(ev, sv.attrib["value"])
            if v is MISSING:
                return MISSING
            forced = sv.attrib.get("forcedType")
            if forced in ("int", "long"):
                return int(v.number if isinstance(v, Enum) else v)
            if isinstance(v, Enum):
                v = v.label
            if forced == "string":
                v = str(v)
            elif forced == "double":
                v = float(v)
            return v
        raise Refused("stateValue type %s is not interpreted" % t)

    def kind(self, sv, ev, value):
        """The type Trace Compass gives @sv's value: Integer, Long, String
        (an integer field is a Long, an enumeration a pair)."""
        forced = sv.attrib.get("forcedType")
        t = sv.attrib["type"]
        if value is None:
            return None
        if forced:
            return {"int": "Integer", "long": "Long", "string": "String",
                    "double": "Double"}[forced]
        if t == "int":
            return "Integer"
        if t == "long":
            return "Long"
        if t == "string":
            return "String"
        raw = self.field(ev, sv.attrib["value"])
        if isinstance(raw, Enum):
            return "CtfEnumPair"
        if is_number(raw):
            return "Double" if isinstance(raw, float) else "Long"
        return "String"

    def path(self, attrs, ev):
        out = []
        for a in attrs:
            t = a.attrib["type"]
            if t == "constant":
                out.append(self.resolve_defined(a.attrib["value"]))
            elif t == "eventField":
                v = self.field(ev, a.attrib["value"])
                if v is MISSING:
                    return None
                out.append(str(v))
            elif t == "location":
                loc = self.locations.get(a.attrib["value"])
                if loc is None:
                    raise Refused("unknown location %s" % a.attrib["value"])
                sub = self.path(loc.findall("stateAttribute"), ev)
                if sub is None:
                    return None
                out.extend(sub)
            else:
                raise Refused("stateAttribute type %s is not interpreted" % t)
        return tuple(out)

    # conditions
    @staticmethod
    def compare(a, b, op):
        if a is MISSING or b is MISSING:
            return False
        if isinstance(a, Enum):
            a = a.label
        if isinstance(b, Enum):
            b = b.label
        if not (is_number(a) and is_number(b)):
            a = "null" if a is None else str(a)
            b = "null" if b is None else str(b)
        return {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b,
                "gt": a > b, "ge": a >= b}[op]

    def condition(self, c, ev):
        op = c.attrib.get("operator", "eq")
        field = c.find("field")
        values = c.findall("stateValue")
        attrs = c.findall("stateAttribute")
        if field is not None:
            left = self.field(ev, field.attrib["name"])
            right = self.state_value(values[0], ev)
        elif attrs:
            p = self.path(attrs, ev)
            left = MISSING if p is None else self.current.get(p)
            right = self.state_value(values[0], ev)
        elif len(values) == 2:
            left = self.state_value(values[0], ev)
            right = self.state_value(values[1], ev)
        else:
            raise Refused("a condition of another shape")
        return self.compare(left, right, op)

    def test(self, elem, ev):
        tag = elem.tag
        if tag == "condition":
            return self.condition(elem, ev)
        kids = list(elem)
        if tag in ("if", "not"):
            r = self.test(kids[0], ev)
            return not r if tag == "not" else r
        if tag == "and":
            return all(self.test(k, ev) for k in kids)
        if tag == "or":
            return any(self.test(k, ev) for k in kids)
        raise Refused("condition element <%s>" % tag)

    # changes
    def set(self, path, value, ts):
        if self.current.get(path) == value and path in self.current:
            return
        self.current[path] = value
        hist = self.history.setdefault(path, [])
        if hist and hist[-1][0] == ts:
            hist[-1][1] = value
        else:
            hist.append([ts, value])
        # Trace Compass makes every prefix of a path an attribute.
        for i in range(1, len(path)):
            self.history.setdefault(path[:i], [])

    def state_change(self, sc, ev):
        cond = sc.find("if")
        if cond is not None:
            branch = sc.find("then") if self.test(cond, ev) else sc.find("else")
            if branch is not None:
                self.state_change(branch, ev)
            return
        attrs = sc.findall("stateAttribute")
        sv = sc.find("stateValue")
        path = self.path(attrs, ev)
        value = self.state_value(sv, ev)
        if path is None or value is MISSING:
            self.skipped += 1
            return
        kind = self.kind(sv, ev, value)
        if sv.attrib.get("increment") == "true" and value is not None:
            # Trace Compass adds a Long to a Long and an Integer to an
            # Integer, and fails on a mix (a cast of the ongoing value).
            have = self.kinds.get(path) if self.current.get(path) is not None \
                else None
            if kind not in ("Integer", "Long") or have not in (None, kind):
                raise Refused("increment of %s (a %s) by a %s: Trace Compass "
                              "fails on it" % ("/".join(path), have, kind))
            value = (self.current.get(path) or 0) + value
        self.kinds[path] = kind
        self.set(path, value, ev["ts"])

    def event(self, ev):
        for h in self.handlers.get(ev["name"], []):
            for sc in h.findall("stateChange"):
                self.state_change(sc, ev)


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[3], file=sys.stderr)
        return 2
    xml = argv[0]
    argv = argv[1:]
    want = None
    if argv[0] == "--id":
        want = argv[1]
        argv = argv[2:]
    if argv[0] == "--babeltrace":
        events = babeltrace_events(argv[1])
    elif argv[0] == "--script":
        events = script_events(argv[1])
    else:
        print("--babeltrace TEXT or --script FILE", file=sys.stderr)
        return 2
    root = ET.parse(xml).getroot()
    sps = [sp for sp in root.findall("stateProvider")
           if want is None or sp.attrib.get("id") == want]
    if len(sps) != 1:
        print("%s: %d state providers%s" % (xml, len(sps),
              " with id %s" % want if want else ""), file=sys.stderr)
        return 2
    try:
        sp = StateProvider(sps[0])
        last = None
        for ev in events:
            if last is not None and ev["ts"] < last:
                print("events out of time order at %d" % ev["ts"],
                      file=sys.stderr)
                return 2
            last = ev["ts"]
            sp.event(ev)
    except Refused as e:
        print("%s: not interpreted: %s" % (xml, e), file=sys.stderr)
        return 2
    json.dump({"/".join(p): h for p, h in sorted(sp.history.items())},
              sys.stdout, indent=0, sort_keys=True)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

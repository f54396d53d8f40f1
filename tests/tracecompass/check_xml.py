#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check the Trace Compass XML analyses against the tracepoint providers.

usage: check_xml.py [--names] [--metadata TSDL] [HEADER...] -- XML...

Each XML file must be well formed, be a <tmfxml> document, and hold
only what Trace Compass's data-driven analyses know at the top level
(pattern, stateProvider, timeGraphView, xyView).  Inside it every id a
file uses must be defined in it (tests, actions, FSMs, states, defined
values, locations, the analysis a view shows), and every event name and
event field it reads must exist in the LTTng-UST providers declared in
HEADER... (tracepoints/*.h): an event "provider:name", a field of that
event or of any event the same handler, transition or test may see, or
a context ("context._NAME") that the traces carry.  With --metadata,
the events, fields and contexts come from a recorded trace's metadata as
text instead (babeltrace2 -o ctf-metadata TRACE): LTTng writes each field
and context name with a leading underscore, which Trace Compass drops for
fields and keeps for contexts.

Prints one line per problem and exits 1 if there is any; --names prints
the events and fields found in the headers instead (to see what the
parser makes of them).
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

# The contexts rpcsim --trace, doc/tracing.md's recipe and
# tracecompass/rpcsim-session.lttng add.
CONTEXTS = {"vtid", "vpid", "procname"}

# Fields that Trace Compass resolves itself, whatever the event.
SPECIAL_FIELDS = {"cpu", "timestamp", "hostid"}

TOP_LEVEL = {"pattern", "stateProvider", "timeGraphView", "xyView"}

# lttng_ust_field_* macros: the position of the field's name among the
# macro's arguments.
FIELD_NAME_ARG = {
    "string": 0,
    "string_nowrite": 0,
    "enum": 3,
    "enum_nowrite": 3,
}
DEFAULT_FIELD_NAME_ARG = 1   # integer, integer_hex, float, array, sequence...


def strip_c_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def split_args(text, start):
    """The arguments of the call whose '(' is at text[start], split at
    top-level commas, and the index after its ')'."""
    assert text[start] == "("
    depth = 0
    args = []
    cur = []
    i = start
    while i < len(text):
        c = text[i]
        if c == "(":
            depth += 1
            if depth > 1:
                cur.append(c)
        elif c == ")":
            depth -= 1
            if depth == 0:
                args.append("".join(cur).strip())
                return args, i + 1
            cur.append(c)
        elif c == "," and depth == 1:
            args.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    raise ValueError("unbalanced parentheses")


def schema_lists(path):
    """{ "TRACE_FIELDS_X": {field, ...} } from tracepoints/trace_schema.h,
    whose lists the providers expand into their fields."""
    lists = {}
    if not os.path.exists(path):
        return lists
    with open(path, encoding="utf-8") as f:
        text = strip_c_comments(f.read()).replace("\\\n", " ")
    for name, body in re.findall(r"#define (TRACE_FIELDS_\w+)\(F\)(.*)", text):
        lists[name] = set(re.findall(r"F\(\w+,\s*[^,]+?,\s*(\w+),", body))
    return lists


SCHEMA_LISTS = {}


def fields_of(fields_text):
    names = set()
    for m in re.finditer(r"\b(TRACE_FIELDS_\w+)\s*\(", fields_text):
        names |= SCHEMA_LISTS.get(m.group(1), set())
    for m in re.finditer(r"\blttng_ust_field_(\w+)\s*\(", fields_text):
        args, _ = split_args(fields_text, m.end() - 1)
        pos = FIELD_NAME_ARG.get(m.group(1), DEFAULT_FIELD_NAME_ARG)
        if pos < len(args):
            names.add(args[pos])
    return names


def tp_fields_arg(args):
    for a in args:
        if a.startswith("LTTNG_UST_TP_FIELDS"):
            return a
    return ""


def parse_headers(paths):
    """{ "provider:event": {field, ...} } from the providers' headers."""
    events = {}
    classes = {}
    for path in paths:
        SCHEMA_LISTS.update(schema_lists(os.path.join(
            os.path.dirname(path), "trace_schema.h")))
        with open(path, encoding="utf-8") as f:
            text = strip_c_comments(f.read())
        for m in re.finditer(
                r"\b(LTTNG_UST_TRACEPOINT_EVENT|LTTNG_UST_TRACEPOINT_EVENT_CLASS"
                r"|LTTNG_UST_TRACEPOINT_EVENT_INSTANCE|TRACEPOINT_EVENT"
                r"|TRACEPOINT_EVENT_CLASS|TRACEPOINT_EVENT_INSTANCE)\s*\(",
                text):
            kind = m.group(1)
            args, _ = split_args(text, m.end() - 1)
            if kind.endswith("_CLASS"):
                classes[(args[0], args[1])] = fields_of(tp_fields_arg(args))
            elif kind.endswith("_INSTANCE"):
                events["%s:%s" % (args[0], args[2])] = ("class", args[0], args[1])
            else:
                events["%s:%s" % (args[0], args[1])] = fields_of(
                    tp_fields_arg(args))
    for name, val in list(events.items()):
        if isinstance(val, tuple):
            events[name] = classes.get((val[1], val[2]), set())
    return events


def matching_brace(text, start):
    """The index after the '}' that closes the '{' at text[start]."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    raise ValueError("unbalanced braces")


def tsdl_names(struct_text):
    """The underscore-prefixed names a TSDL struct declares."""
    return {m.group(1) for m in
            re.finditer(r"\s_(\w+)\s*(?:\[[^\]]*\])?\s*;", struct_text)}


def parse_metadata(path):
    """({ "provider:event": {field, ...} }, {context, ...}) from TSDL."""
    with open(path, encoding="utf-8") as f:
        text = strip_c_comments(f.read())
    events = {}
    contexts = set()
    for m in re.finditer(r"\b(event|stream)\s*\{", text):
        block = text[m.end() - 1:matching_brace(text, m.end() - 1)]
        if m.group(1) == "event":
            name = re.search(r'\bname\s*=\s*"([^"]+)"\s*;', block)
            fields = re.search(r"\bfields\s*:=\s*struct\s*\{", block)
            if not name:
                continue
            body = ""
            if fields:
                body = block[fields.end() - 1:
                             matching_brace(block, fields.end() - 1)]
            events[name.group(1)] = tsdl_names(body)
        else:
            ctx = re.search(r"\bevent\.context\s*:=\s*struct\s*\{", block)
            if ctx:
                contexts |= tsdl_names(
                    block[ctx.end() - 1:matching_brace(block, ctx.end() - 1)])
    return events, contexts


class Checker:
    def __init__(self, events, path, contexts=None):
        self.events = events
        self.contexts = CONTEXTS if contexts is None else contexts
        self.path = path
        self.problems = []

    def bad(self, what):
        self.problems.append("%s: %s" % (self.path, what))

    def check_event(self, name, where):
        if name not in self.events:
            self.bad("%s: unknown event %r" % (where, name))
            return False
        return True

    def check_field(self, field, event_names, where):
        if field.startswith("context."):
            ctx = field[len("context."):].lstrip("_")
            if ctx not in self.contexts:
                self.bad("%s: unknown context %r (the traces have %s)"
                         % (where, field, ", ".join(sorted(self.contexts))))
            return
        if field.lower() in SPECIAL_FIELDS:
            return
        known = [e for e in event_names if e in self.events]
        if not known:
            self.bad("%s: field %r read where no known event applies"
                     % (where, field))
            return
        if not any(field in self.events[e] for e in known):
            self.bad("%s: unknown field %r (events: %s)"
                     % (where, field, ", ".join(sorted(known))))

    @staticmethod
    def fields_read(elem):
        """(field name, element) for every event field elem reads."""
        for e in elem.iter():
            if e.tag == "field" and "name" in e.attrib:
                yield e.attrib["name"], e
            elif (e.tag in ("stateValue", "stateAttribute")
                  and e.attrib.get("type") == "eventField"):
                yield e.attrib.get("value", ""), e

    def check_state_provider(self, sp):
        defined = {d.attrib["name"] for d in sp.iter("definedValue")}
        locations = {l.attrib["id"]: l for l in sp.findall("location")}
        for h in sp.findall("eventHandler"):
            ev = h.attrib.get("eventName", "")
            where = "eventHandler %s" % ev
            self.check_event(ev, where)
            for field, _ in self.fields_read(h):
                self.check_field(field, [ev], where)
            self.check_locations(h, locations, ev, where, ())
            self.check_defined(h, defined, where)

    def check_locations(self, elem, locations, ev, where, seen):
        """The locations @elem uses, and those they use in turn."""
        for e in elem.iter("stateAttribute"):
            if e.attrib.get("type") != "location":
                continue
            loc = e.attrib.get("value")
            if loc not in locations:
                self.bad("%s: unknown location %r" % (where, loc))
            elif loc in seen:
                self.bad("%s: location %r contains itself" % (where, loc))
            else:
                for field, _ in self.fields_read(locations[loc]):
                    self.check_field(field, [ev],
                                     "%s (location %s)" % (where, loc))
                self.check_locations(locations[loc], locations, ev, where,
                                     seen + (loc,))

    def check_defined(self, elem, defined, where):
        for e in elem.iter("stateValue"):
            v = e.attrib.get("value", "")
            if v.startswith("$") and v[1:] not in defined:
                self.bad("%s: undefined value %r" % (where, v))

    def check_pattern(self, pat):
        handler = pat.find("patternHandler")
        if handler is None:
            self.bad("pattern %s: no patternHandler" % pat.attrib.get("id"))
            return
        tests = {t.attrib["id"]: t for t in handler.findall("test")}
        actions = {a.attrib["id"]: a for a in handler.findall("action")}
        fsms = {f.attrib["id"]: f for f in handler.findall("fsm")}
        defined = {d.attrib["name"] for d in pat.iter("definedValue")}
        for fid in filter(None, handler.attrib.get("initial", "").split(":")):
            if fid not in fsms:
                self.bad("patternHandler: unknown initial fsm %r" % fid)
        # Which events each test and action may see: those of the
        # transitions that use them.
        seen_by = {}
        for fid, fsm in fsms.items():
            pre = [p.attrib["event"] for p in fsm.findall("precondition")
                   if "event" in p.attrib]
            for ev in pre:
                self.check_event(ev, "fsm %s precondition" % fid)
            states = {s.attrib["id"] for s in fsm.iter("state")}
            states |= {s.attrib["id"] for s in fsm.iter("final")}
            if fsm.attrib.get("initial") and fsm.attrib["initial"] not in states:
                self.bad("fsm %s: unknown initial state %r"
                         % (fid, fsm.attrib["initial"]))
            for t in fsm.iter("transition"):
                ev = t.attrib.get("event")
                evs = [ev] if ev else (pre or list(self.events))
                if ev:
                    self.check_event(ev, "fsm %s transition" % fid)
                target = t.attrib.get("target")
                if target and target not in states:
                    self.bad("fsm %s: unknown target state %r" % (fid, target))
                cond = t.attrib.get("cond")
                if cond:
                    if cond not in tests:
                        self.bad("fsm %s: unknown test %r" % (fid, cond))
                    seen_by.setdefault(("test", cond), set()).update(evs)
                for aid in filter(None, t.attrib.get("action", "").split(":")):
                    if aid not in actions:
                        self.bad("fsm %s: unknown action %r" % (fid, aid))
                    seen_by.setdefault(("action", aid), set()).update(evs)
        for kind, table in (("test", tests), ("action", actions)):
            for xid, elem in table.items():
                evs = seen_by.get((kind, xid))
                if evs is None:
                    self.bad("%s %s is never used" % (kind, xid))
                    continue
                for field, _ in self.fields_read(elem):
                    self.check_field(field, sorted(evs), "%s %s" % (kind, xid))
                self.check_defined(elem, defined, "%s %s" % (kind, xid))

    def check(self):
        try:
            root = ET.parse(self.path).getroot()
        except ET.ParseError as e:
            self.bad("not well formed: %s" % e)
            return self.problems
        if root.tag != "tmfxml":
            self.bad("root element is <%s>, not <tmfxml>" % root.tag)
            return self.problems
        analyses = set()
        for child in root:
            if child.tag not in TOP_LEVEL:
                self.bad("unexpected top-level element <%s>" % child.tag)
            if child.tag in ("pattern", "stateProvider"):
                analyses.add(child.attrib.get("id"))
                for attr in ("id", "version"):
                    if attr not in child.attrib:
                        self.bad("<%s> has no %s" % (child.tag, attr))
        if not analyses:
            self.bad("no pattern or stateProvider")
        for child in root:
            if child.tag == "pattern":
                self.check_pattern(child)
            elif child.tag == "stateProvider":
                self.check_state_provider(child)
            elif child.tag in ("timeGraphView", "xyView"):
                for a in child.iter("analysis"):
                    if a.attrib.get("id") not in analyses:
                        self.bad("view %s: analysis %r is not in this file"
                                 % (child.attrib.get("id"), a.attrib.get("id")))
        return self.problems


def main(argv):
    names_only = False
    metadata = None
    while argv and argv[0] in ("--names", "--metadata"):
        if argv[0] == "--names":
            names_only = True
            argv = argv[1:]
        elif len(argv) > 1:
            metadata = argv[1]
            argv = argv[2:]
        else:
            break
    if "--" not in argv:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    sep = argv.index("--")
    headers, xmls = argv[:sep], argv[sep + 1:]
    events = parse_headers(headers)
    contexts = None
    if metadata is not None:
        md_events, contexts = parse_metadata(metadata)
        events.update(md_events)
    if names_only:
        for ev in sorted(events):
            print(ev, " ".join(sorted(events[ev])))
        if contexts is not None:
            print("context", " ".join(sorted(contexts)))
        return 0
    if not events:
        print("no events found in %s" % " ".join(headers + [metadata or ""]))
        return 1
    problems = []
    for path in xmls:
        problems += Checker(events, path, contexts).check()
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

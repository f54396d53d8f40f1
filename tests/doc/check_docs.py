#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# check_docs.py: the checks of tests/doc/test_docs.sh on README.md and
# doc/, one command each; each prints what is wrong, one line per fault,
# and exits 1 if anything is.
#
#   quickstart README     print the command lines of README's "Quick start"
#                         (the indented lines of its code blocks)
#   links FILE...         every relative link of each Markdown FILE leads
#                         to a file or folder that exists and, with
#                         #anchor, to a heading of that file (anchors as
#                         GitHub makes them from headings)
#   index DOCDIR          DOCDIR/README.md links every Markdown file below
#                         DOCDIR; each file of DOCDIR/results/ is linked
#                         from a document outside results/, says
#                         "measured at COMMIT" and shows a command (an
#                         indented line)

import os
import re
import sys

LINK = re.compile(r'\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)\)')


def code_spans_removed(line):
    return re.sub(r'`[^`]*`', '', line)


def headings(path):
    """The anchors GitHub gives the headings of a Markdown file."""
    anchors = set()
    seen = {}
    fence = False
    with open(path, encoding='utf-8') as f:
        for line in f:
            if line.startswith('```'):
                fence = not fence
                continue
            m = re.match(r'(#{1,6}) +(.*?) *#* *$', line)
            if fence or not m:
                continue
            slug = m.group(2).strip().lower()
            slug = re.sub(r'[^\w\- ]', '', slug)
            slug = slug.replace(' ', '-')
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            anchors.add(slug if n == 0 else '%s-%d' % (slug, n))
    return anchors


def links(path):
    """(line number, target) of each inline link outside code."""
    out = []
    fence = False
    with open(path, encoding='utf-8') as f:
        for no, line in enumerate(f, 1):
            if line.startswith('```'):
                fence = not fence
                continue
            if fence or line.startswith('    ') or line.startswith('\t'):
                continue
            for m in LINK.finditer(code_spans_removed(line)):
                out.append((no, m.group(1)))
    return out


def check_links(files):
    faults = []
    for path in files:
        base = os.path.dirname(path)
        for no, target in links(path):
            if re.match(r'[a-z][a-z0-9+.-]*:', target):
                continue        # http:, mailto: ...: not ours to check
            name, _, anchor = target.partition('#')
            dest = os.path.normpath(os.path.join(base, name)) if name \
                else path
            where = '%s:%d: %s' % (path, no, target)
            if not os.path.exists(dest):
                faults.append('%s: no such file' % where)
            elif anchor:
                if os.path.isdir(dest) or not dest.endswith('.md'):
                    faults.append('%s: an anchor into a non-Markdown file'
                                  % where)
                elif anchor not in headings(dest):
                    faults.append('%s: no heading makes that anchor'
                                  % where)
    return faults


def quickstart(readme):
    lines = []
    inside = False
    with open(readme, encoding='utf-8') as f:
        for line in f:
            if line.startswith('## '):
                inside = line.strip() == '## Quick start'
                continue
            if inside and line.startswith('    ') and line.strip():
                lines.append(line.strip())
    return lines


def check_index(docdir):
    faults = []
    index = os.path.join(docdir, 'README.md')
    linked = set()
    for _, target in links(index):
        name = target.partition('#')[0]
        if name:
            linked.add(os.path.normpath(os.path.join(docdir, name)))
    topics = []
    results = []
    for root, _, names in os.walk(docdir):
        for n in sorted(names):
            if not n.endswith('.md'):
                continue
            p = os.path.normpath(os.path.join(root, n))
            if p == os.path.normpath(index):
                continue
            if p not in linked:
                faults.append('%s: not in %s' % (p, index))
            if os.path.basename(root) == 'results':
                results.append(p)
            else:
                topics.append(p)
    cited = set()
    for t in topics:
        for _, target in links(t):
            name = target.partition('#')[0]
            if name:
                cited.add(os.path.normpath(
                    os.path.join(os.path.dirname(t), name)))
    for r in results:
        with open(r, encoding='utf-8') as f:
            text = f.read()
        if r not in cited:
            faults.append('%s: no document of %s links it' % (r, docdir))
        if not re.search(r'measured at [0-9a-f]{7,40}\b', text):
            faults.append('%s: says no "measured at COMMIT"' % r)
        if not re.search(r'^    \S', text, re.M):
            faults.append('%s: shows no command (an indented line)' % r)
    return faults


def main(argv):
    if len(argv) < 3:
        sys.stderr.write('usage: check_docs.py quickstart|links|index '
                         'PATH...\n')
        return 2
    cmd, args = argv[1], argv[2:]
    if cmd == 'quickstart':
        print('\n'.join(quickstart(args[0])))
        return 0
    if cmd == 'links':
        faults = check_links(args)
    elif cmd == 'index':
        faults = check_index(args[0])
    else:
        sys.stderr.write('check_docs.py: unknown command %s\n' % cmd)
        return 2
    for f in faults:
        print(f)
    return 1 if faults else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))

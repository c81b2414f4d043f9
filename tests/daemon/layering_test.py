#!/usr/bin/env python3
"""daemon/src's folders depend one way: a file in a folder includes only
folders listed before its own on the `layers:` line of daemon/src/README.md,
and never the daemon's top level. Prints every include that breaks the
order, naming the file, the line and the rule; exits 1 if there is any."""
import pathlib
import re
import sys

src = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "daemon/src")
readme = (src / "README.md").read_text()
match = re.search(r"^layers: (.+)$", readme, re.M)
if not match:
    sys.exit(f"{src / 'README.md'}: no 'layers:' line")
layers = match.group(1).split()
folders = {p.name for p in src.iterdir() if p.is_dir()}
if set(layers) != folders:
    sys.exit(f"{src / 'README.md'}: layers {sorted(layers)} are not the folders {sorted(folders)}")
top = {p.name for p in src.iterdir() if p.suffix == ".h"}

bad = []
for path in sorted(src.glob("*/*")):
    if path.suffix not in (".h", ".cc"):
        continue
    own = path.parent.name
    for n, line in enumerate(path.read_text().splitlines(), 1):
        inc = re.match(r'#include "([^"]+)"', line)
        if not inc:
            continue
        name = inc.group(1)
        folder = name.split("/")[0] if "/" in name else None
        if folder in layers and layers.index(folder) > layers.index(own):
            bad.append(f"{path}:{n}: {own}/ includes {name}, but {folder}/ comes after {own}/")
        elif folder is None and name in top:
            bad.append(f"{path}:{n}: {own}/ includes {name}, the daemon's top level")
for b in bad:
    print(b)
print(f"{len(bad)} includes against the layers ({' < '.join(layers)})")
sys.exit(1 if bad else 0)

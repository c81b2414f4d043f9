#!/usr/bin/env bash
# Installs the Python SDK as the README says, from a copy of the checkout
# (client-sdk/python and proto/ only), into a fresh venv that sees Debian's
# python3-protobuf and python3-redis, and checks that it imports with its
# generated stubs. Usage: pip_install_check.sh PYTHON REPO
set -euo pipefail
python=$1
repo=$2
tmp=$(mktemp -d /tmp/trestle-pip-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/checkout/client-sdk"
cp -r "$repo/proto" "$tmp/checkout/proto"
cp -r "$repo/client-sdk/python" "$tmp/checkout/client-sdk/python"
rm -rf "$tmp/checkout/client-sdk/python/build" "$tmp/checkout/client-sdk/python/"*.egg-info \
       "$tmp/checkout/client-sdk/python/trestle/wire/"*_pb2.py
cd "$tmp/checkout"
# The README's commands:
"$python" -m venv --system-site-packages "$tmp/venv"
"$tmp/venv/bin/pip" install --no-index --no-build-isolation ./client-sdk/python
cd /
"$tmp/venv/bin/python" - <<'PY'
import trestle
from trestle.wire import pb
f = pb.Frame()
f.hello.client_id = "x"
f.hello.self_lookahead_ns = 5
assert pb.Frame.FromString(f.SerializeToString()).hello.self_lookahead_ns == 5
assert trestle.__file__.startswith(__import__("sys").prefix), trestle.__file__
print("trestle imports from", trestle.__file__)
PY

"""Builds the trestle package; its wire stubs are generated from proto/ by protoc.

Install from a checkout (docs in the README):
  python3 -m venv --system-site-packages VENV && VENV/bin/pip install ./client-sdk/python

The stubs (trestle/wire/trestle_pb2.py, protocol_facts_pb2.py) are not in the
source tree: build_py runs `protoc --python_out` on the repository's
proto/trestle.proto and proto/protocol_facts.proto (or those in
$TRESTLE_PROTO_DIR), so they always match the checkout.
"""
import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO_DIR = os.environ.get("TRESTLE_PROTO_DIR", os.path.join(HERE, "..", "..", "proto"))
PROTOS = ["trestle.proto", "protocol_facts.proto"]


class BuildPyWithStubs(build_py):
    """build_py that generates trestle/wire/*_pb2.py with protoc first."""

    def run(self):
        super().run()
        protos = [os.path.join(PROTO_DIR, name) for name in PROTOS]
        for proto in protos:
            if not os.path.isfile(proto):
                raise SystemExit(f"trestle: {proto} not found: install from a Trestle checkout, "
                                 "or set TRESTLE_PROTO_DIR to the directory holding "
                                 f"{', '.join(PROTOS)}")
        protoc = shutil.which("protoc")
        if protoc is None:
            raise SystemExit("trestle: protoc not found: apt-get install protobuf-compiler "
                             "(deploy/install-deps.sh installs it)")
        out = os.path.join(self.build_lib, "trestle", "wire")
        os.makedirs(out, exist_ok=True)
        subprocess.check_call([protoc, f"--proto_path={PROTO_DIR}", f"--python_out={out}", *protos])


setup(
    name="trestle",
    version="0.1.0",
    description="Python SDK of the Trestle co-simulation bridge (apps and simulator adapters)",
    packages=["trestle", "trestle.wire"],
    python_requires=">=3.9",
    # Debian 12: python3-protobuf, python3-redis (in a venv: --system-site-packages).
    install_requires=["protobuf>=3.20", "redis>=4.2"],
    cmdclass={"build_py": BuildPyWithStubs},
)

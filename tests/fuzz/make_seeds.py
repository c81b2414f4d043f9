#!/usr/bin/env python3
"""Writes the committed seed corpora of the fuzz targets (tests/fuzz/corpus/).

Each seed is a small, readable case: a frame stream, a program for the daemon
dispatch harness, a topology spec, a YAML settings file. The byte layouts are
those documented at the top of each target. Run it after changing a layout:
    python3 tests/fuzz/make_seeds.py
It rewrites the seed_* files only; regression inputs (regress_*) stay.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, "seed_" + name), "wb") as f:
        f.write(data)


# --- protobuf, by hand (trestle.proto field numbers) -------------------------
def varint(n):
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def fv(num, n):  # varint field
    return varint(num << 3) + varint(n)


def fb(num, data):  # length-delimited field
    if isinstance(data, str):
        data = data.encode()
    return varint((num << 3) | 2) + varint(len(data)) + data


def frame(body):
    return struct.pack(">I", len(body)) + body


HELLO = fb(1, fv(1, 1) + fv(2, 1) + fb(3, "node-a") + fv(5, 1))
PING = lambda n: fb(3, fv(1, n))
SEND = fb(12, fb(1, "node-b") + fb(2, b"x" * 100) + fv(3, 5) + fv(6, 1))
OUTCOMES = fb(15, fb(1, fv(1, 7) + fv(2, 1) + fv(3, 9)) + fb(1, fv(1, 8) + fv(2, 2)))
ATTACH = fb(10, fb(1, "0123456789abcdef0123456789abcdef") + fv(2, 2))


# --- frame_decoder_fuzzer: [max, switch_after, max_after, 8 seed bytes] ------
def decoder(name, stream, max_sel=0xFF, switch_after=0xFF, max_after=0xFF, seeds=b"\1\2\3\4\5\6\7\10"):
    write("frame_decoder_fuzzer", name, bytes([max_sel, switch_after, max_after]) + seeds + stream)


decoder("hello", frame(HELLO))
decoder("pings", b"".join(frame(PING(n)) for n in range(20)))
decoder("send", frame(SEND))
decoder("outcomes_then_attach", frame(OUTCOMES) + frame(ATTACH))
decoder("empty_frames", frame(b"") * 5)
decoder("truncated_body", frame(SEND)[:-10])
decoder("truncated_header", frame(PING(1)) + b"\0\0")
decoder("malformed_body", frame(b"\x0f\xff\xff"))
decoder("oversized_small_max", frame(SEND), max_sel=10)          # max 71
decoder("oversized_default", struct.pack(">I", (16 << 20) + 1) + b"abc")
decoder("at_default_max_partial", struct.pack(">I", 16 << 20) + b"x" * 200)
decoder("max_lowered_after_hello", frame(HELLO) + frame(SEND), switch_after=1, max_sel=0xFF, max_after=5)
decoder("max_raised_after_one", frame(PING(3)) + frame(SEND), max_sel=2, switch_after=1, max_after=0xFF)
decoder("unknown_fields", frame(fb(99, b"future") + PING(4)))
decoder("one_byte_chunks", b"".join(frame(PING(n)) for n in range(5)), seeds=b"\0\0\0\0\0\0\0\0")
decoder("mixed", frame(HELLO) + frame(ATTACH) + frame(SEND) + frame(b"") + frame(OUTCOMES) + frame(b"\x0f"))


# --- daemon_dispatch_fuzzer: [config] then ops ------------------------------
# Ops (see the target): 0 Hello(slot, bits, id[, token]) 1 Attach(slot, bits,
# token) 2 Send(slot, bits, dst[, n], size, t) 3 Outcomes(slot, n-1, (pick,
# status, t)*) 4 Fetch(slot, max, timeout) 5 Receive(slot, max, timeout) 6 Bye
# (slot) 7 Ping/Stats(slot, odd=stats | even, nonce) 8 Garbage(slot, len,
# bytes) 9 HangUp(slot) 10 PeerReads(slot) 11 TimePasses(slot, ms).
# Hello bits: 1 SIM, 2 PULL, 4 shared, 8 bad version, 16 auth, 32 wrong auth,
# 64 resume, 128 (with APP) unspecified role. Ids: a b c sim sim2 absent.
# Attach bits: 0-3 channel (2 send, 3 recv), 4 auth.
A, B, C, SIM, SIM2, ABSENT = range(6)


def hello(slot, bits, ident, token=None):
    return [0, slot, bits, ident] + ([token] if bits & 64 else [])


def attach(slot, channel, token, auth=False):
    return [1, slot, channel | (4 if auth else 0), token]


def send(slot, dst, size=16, t=1, bits=0, extra=None):
    return [2, slot, bits, dst] + ([extra] if extra is not None else []) + [size, t]


def outcomes(slot, *items):
    out = [3, slot, len(items) - 1]
    for pick, status, t in items:
        out += [pick, status, t]
    return out


def program(name, config, *ops):
    data = [config]
    for op in ops:
        data += op
    write("daemon_dispatch_fuzzer", name, bytes(data))


shared_relay = [hello(2, 1 | 4, SIM), hello(0, 4, A), hello(1, 4, B),
                send(0, B, 64, 5), outcomes(2, (0, 1, 10)), [10, 1], [7, 0, 1]]
program("shared_relay", 0, *shared_relay)
program("three_channels", 0,
        hello(0, 0, A), attach(1, 2, 0), attach(2, 3, 0), hello(3, 1 | 4, SIM),
        send(1, A, 8), outcomes(3, (0, 1, 3)), [10, 2], [7, 0, 0, 42], [6, 0])
program("pull_sim_drop_report", 0,
        hello(0, 1 | 2 | 4, SIM), hello(1, 4, A), send(1, B, 8, bits=4), [4, 0, 4, 0],
        outcomes(0, (0, 2, 1)), [10, 1])
program("pull_app", 0,
        hello(3, 1 | 4, SIM), hello(0, 2, B), attach(1, 2, 1), attach(2, 3, 1), hello(4, 4, A),
        send(4, B, 32), outcomes(3, (0, 1, 2)), [5, 2, 4, 0], [5, 2, 1, 2], [11, 0, 5])
program("auth", 1, hello(0, 4, A), hello(1, 4 | 16, A), hello(2, 4 | 32, B),
        hello(3, 0 | 16, C), attach(4, 2, 0), attach(5, 2 | 4, 0, True))
program("resume", 0, hello(0, 4, A), hello(1, 1 | 4, SIM), send(0, A, 8), [9, 0],
        outcomes(1, (0, 1, 1)), hello(2, 4 | 64, A, 0), [10, 2], [11, 0, 10])
program("duplicate_id", 0, hello(0, 4, A), hello(1, 4, A), hello(2, 1 | 4, A))
program("bye_and_again", 0, hello(0, 4, A), [6, 0], hello(1, 4, A), [6, 1])
program("garbage", 0, [8, 0, 3, 0xFF, 0xFF, 0xFF], hello(1, 4, A),
        [8, 1, 2, 0x1A, 0x00], [8, 1, 4, 0x32, 0x02, 0x08, 0x01])
program("tiny_limits_backpressure", 8 | 16,
        hello(0, 4, A), *[send(0, B, 100) for _ in range(12)], hello(1, 1 | 4, SIM),
        [10, 1], outcomes(1, (0, 1, 1), (1, 1, 1), (2, 2, 1)), [10, 1], hello(2, 4, B), [10, 2])
program("ttl_expiry", 0, hello(0, 1 | 4, SIM), hello(1, 4, A),
        send(1, ABSENT, 8), send(1, C, 8), outcomes(0, (0, 1, 1), (1, 1, 1)),
        [11, 0, 255], [11, 0, 255])
program("per_node_sims", 2, hello(0, 1 | 4, A), hello(1, 4, A), hello(2, 4, B),
        send(1, B, 8), send(2, A, 8), outcomes(0, (0, 1, 1)), [10, 2])
program("sim_joins_late", 0, hello(0, 4, A), send(0, B, 8), send(0, B, 8),
        hello(1, 1 | 2 | 4, SIM), [4, 1, 0, 0], outcomes(1, (0, 1, 1), (1, 1, 1)))
program("slow_app", 8, hello(0, 1 | 4, SIM), hello(1, 4, A), hello(2, 4, B),
        *[send(1, B, 200) for _ in range(8)], [10, 0],
        outcomes(0, (0, 1, 1), (1, 1, 1), (2, 1, 1), (3, 1, 1), (4, 1, 1)),
        [11, 0, 30], [11, 0, 30], [10, 2])
program("bad_hellos", 0, hello(0, 8 | 4, A), hello(1, 128 | 4, A), hello(2, 2 | 4, A),
        hello(3, 4, ABSENT))
program("before_hello", 0, send(0, A, 8), [4, 1, 1, 0], [7, 2, 1], [6, 3])
program("bad_attach", 0, hello(0, 0, A), attach(1, 1, 0), attach(2, 0, 0), attach(3, 2, 0xFF),
        attach(4, 2, 0), attach(5, 2, 0))
program("long_names", 32 | 16, hello(0, 1 | 4, SIM), hello(1, 4, A),
        *[send(1, 7, 8, extra=n) for n in (0, 1, 31, 32, 200)],
        *[send(1, 6, 8, extra=n) for n in range(4)], [10, 0])
program("wrong_role_frames", 0, hello(0, 4, A), hello(1, 1 | 4, SIM),
        outcomes(0, (0, 1, 1)), send(1, A, 8), [4, 0, 1, 0], [5, 1, 1, 0], [7, 0, 1])
program("unknown_transits", 0, hello(0, 1 | 4, SIM), outcomes(0, (0xFF, 1, 1), (5, 3, 1), (0, 0, 0)))
program("linger_off_hangups", 4, hello(0, 1 | 4, SIM), hello(1, 4, A), hello(2, 4, B),
        send(1, B, 8), [9, 2], outcomes(0, (0, 1, 1)), [9, 0], hello(3, 1 | 4, SIM2), [11, 0, 200])
program("max_daemon_id", 64, *shared_relay)


# --- topology_spec_fuzzer: [even = spec string | odd = YAML file] + text ------
def spec(name, text):
    write("topology_spec_fuzzer", name, b"\0" + text.encode())


def yaml_spec(name, text):
    write("topology_spec_fuzzer", name, b"\1" + text.encode())


for name, text in [
    ("switch", "switch:8"), ("ring", "ring:8,link_bw=400Gbps,link_latency=500ns"),
    ("torus", "torus:4x4x4"), ("mesh", "mesh:4x4,switch_latency=90ns"), ("fullmesh", "fullmesh:16"),
    ("fattree", "fattree:k=4,oversub=2"), ("dragonfly", "dragonfly:p=4,a=8,h=4,g=33,arrangement=relative"),
    ("slingshot", "slingshot"), ("slingshot_1k", "slingshot-1k,injection_bw=100Gbps"),
    ("bad_dims", "torus:0x4"), ("odd_k", "fattree:k=3"), ("unknown", "hypercube:4"),
    ("unknown_key", "ring:8,color=red"), ("wrong_key", "ring:8,k=4"), ("bare_number_bw", "ring:8,link_bw=400"),
    ("too_large", "torus:65536x65536x2"), ("dragonfly_unreachable", "dragonfly:p=1,a=2,h=1,g=9"),
    ("huge_numbers", "fattree:k=4294967294,oversub=4294967295"), ("empty", ""), ("missing_value", "switch:"),
]:
    spec(name, text)
yaml_spec("yaml_torus", "topology: torus\ndims: [4, 4, 4]\nlink_bw: 400Gbps\n")
yaml_spec("yaml_switch", "topology: switch\nendpoints: 8\nswitch_latency: 100ns\n")
yaml_spec("yaml_dragonfly", "topology: dragonfly\np: 2\na: 4\nh: 2\ng: 9\n")
yaml_spec("yaml_preset", "topology: slingshot-1k\n")
yaml_spec("yaml_missing_topology", "dims: 4x4\n")
yaml_spec("yaml_not_a_map", "- torus\n- 4x4\n")
yaml_spec("yaml_nested_value", "topology: ring\nendpoints: {n: 8}\n")
yaml_spec("yaml_broken", "topology: [ring\n")


# --- config_loader_fuzzer: a YAML settings file -------------------------------
with open(os.path.join(HERE, "..", "..", "deploy", "configs", "trestled.yaml"), "rb") as f:
    write("config_loader_fuzzer", "deploy_trestled_yaml", f.read())
for name, text in [
    ("all_keys", "listen: 127.0.0.1:0\nadmin_listen: ''\nmetrics_listen: 127.0.0.1:9464\n"
     "unix_socket: /tmp/t.sock\nport_file: /tmp/p\nauth_token: s3cret\nstore: memory\n"
     "store_key_ttl_ms: 3600000\ndaemon_id: 5\nsim_assignment: per-node\ntime_mode: virtual\n"
     "max_frame_bytes: 16MiB\nmax_batch: 256\ntransit_queue_limit: 65536\n"
     "delivery_queue_limit: 65536\ndelivery_queue_bytes: 64MiB\nslow_app_grace_ms: 10000\n"
     "delivery_memory_budget: 1GiB\ndelivery_ttl_ms: 30000\nsession_linger_ms: 30000\n"
     "output_high_watermark: 8MiB\nmax_clients: 10000\nlog_level: debug\n"),
    ("redis", "store: redis://127.0.0.1:6379/2\nstore_key_ttl_ms: 60000\ndelivery_ttl_ms: 1000\n"),
    ("redis_ttl_too_short", "store: redis://127.0.0.1:6379\nstore_key_ttl_ms: 1000\n"),
    ("beyond_loopback", "listen: 0.0.0.0:7878\n"),
    ("beyond_loopback_token", "listen: 0.0.0.0:7878\nauth_token: t\n"),
    ("unknown_key", "max_batches: 3\n"),
    ("not_a_number", "max_batch: many\n"),
    ("out_of_range", "daemon_id: 1024\nmax_frame_bytes: 100\n"),
    ("huge_size", "delivery_memory_budget: 99999999999999999999TiB\n"),
    ("negative", "max_batch: -1\n"),
    ("bad_enum", "time_mode: sometimes\n"),
    ("bad_listen", "listen: nowhere\n"),
    ("list_value", "listen: [a, b]\n"),
    ("not_a_map", "- listen\n"),
    ("empty", ""),
    ("comment_only", "# nothing\n"),
    ("null_value", "auth_token:\n"),
    ("anchors", "a: &x 1\nmax_batch: *x\n"),
    ("broken_yaml", "listen: [\n"),
    ("tabs_and_quotes", "listen:\t\"127.0.0.1:1\"\nauth_token: 'it''s'\n"),
]:
    write("config_loader_fuzzer", name, text)

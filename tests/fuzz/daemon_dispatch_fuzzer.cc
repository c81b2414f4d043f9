// Fuzz target: the daemon's control and data planes behind the FrameRouter,
// wired as daemon.cc wires them (SessionManager, DataPlane, StatsReport,
// FrameRouter, InMemoryPayloadStore, a real libuv loop), with up to eight
// FakeClientConnections instead of sockets. The input is a program (one
// byte per decision, see Op below): which connection says what (Hello,
// Attach, Send, OutcomeBatch, Fetch, Receive, Bye, Ping, StatsRequest, or
// bytes parsed as any Frame), peers that hang up or read their output, time
// that passes. Frames name ids, tokens and transits the daemon handed out
// earlier in the run, so the fuzzer gets past the handshake.
//
// After every step it checks the ledger's identity, in total and for every
// app: accepted = delivered + dropped + expired + lost_in_store + in_flight,
// and that the apps' in_flight adds up to the total.
// The fakes abort on a Write or Error after Close and on a frame above the
// frame limit the daemon announced, and are freed once closed, so ASan reports a connection the daemon still uses.
//
// To see what an input does, run it alone with TRESTLE_FUZZ_TRACE=1: each
// step and the ledger's totals at the end go to stderr.
#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>
#include <uv.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "admin/stats_report.h"
#include "byte_reader.h"
#include "dataplane/data_plane.h"
#include "fake_client_connection.h"
#include "frame_router.h"
#include "messages/client_registry.h"
#include "session/session.h"
#include "session_manager.h"
#include "store/in_memory_payload_store.h"
#include "trestle/daemon/daemon_config.h"
#include "trestle/wire/frame_format.h"

namespace trestle::fuzz {
namespace {

constexpr int kSlots = 8;
constexpr std::size_t kRemembered = 32;  // tokens and transit ids kept for reuse
constexpr char kAuthToken[] = "fuzz-secret";

// Client ids the peers use: a small set, so they collide (ALREADY_EXISTS,
// resumes, per-node simulators named like apps), plus names nobody holds.
const std::array<std::string, 6> kIds = {"a", "b", "c", "sim", "sim2", "absent"};

enum Op : std::uint8_t {
  kHello, kAttach, kSend, kOutcomes, kFetch, kReceive, kBye, kPingOrStats,
  kGarbage, kHangUp, kPeerReads, kTimePasses, kOpCount,
};

void Check(bool ok, const char* what, std::uint64_t a = 0, std::uint64_t b = 0) {
  if (ok) return;
  std::fprintf(stderr, "daemon_dispatch_fuzzer: invariant broken: %s (%llu vs %llu)\n", what,
               static_cast<unsigned long long>(a), static_cast<unsigned long long>(b));
  std::abort();
}

void CheckIdentity(const daemon::MessageCounters& c, const char* who) {
  const std::uint64_t terminal = c.delivered + c.dropped + c.expired + c.lost_in_store;
  Check(c.accepted == terminal + c.in_flight, who, c.accepted, terminal + c.in_flight);
}

// The first input byte picks the daemon's settings: small limits, so that
// queues fill, batches split and slow apps are closed within a short input.
daemon::DaemonConfig ConfigFrom(std::uint8_t bits) {
  daemon::DaemonConfig c;
  if (bits & 1) c.auth_token = kAuthToken;
  c.sim_assignment = (bits & 2) ? daemon::SimAssignment::kPerNode : daemon::SimAssignment::kSystem;
  c.session_linger_ms = (bits & 4) ? 0 : 50;
  const bool tiny = bits & 8;
  c.transit_queue_limit = tiny ? 4 : 64;
  c.delivery_queue_limit = tiny ? 4 : 64;
  c.delivery_queue_bytes = tiny ? 256 : 64 * 1024;
  c.delivery_memory_budget = tiny ? 1024 : 1 << 20;
  c.output_high_watermark = tiny ? 512 : 64 * 1024;
  c.max_batch = (bits & 16) ? 2 : 16;
  c.max_frame_bytes = (bits & 32) ? 4096 : 64 * 1024;  // payloads up to max - 1024
  c.delivery_ttl_ms = 100;
  c.slow_app_grace_ms = 20;
  c.daemon_id = (bits & 64) ? daemon::kMaxDaemonId : 0;
  return c;
}

class DispatchHarness final : public PeerMemory {
 public:
  explicit DispatchHarness(std::uint8_t config_bits)
      : config_(ConfigFrom(config_bits)),
        loop_(InitLoop(&uv_loop_)),
        sessions_(loop_, config_, apps_, sims_),
        data_(loop_, config_, store_, apps_, sims_, sessions_),
        report_(apps_, sims_, data_),
        router_(sessions_, data_, report_) {
    sessions_.set_data_plane(&data_);
  }

  ~DispatchHarness() override {
    if (trace_) {
      const daemon::MessageCounters& t = data_.ledger().totals();
      std::fprintf(stderr,
                   "end: accepted %llu delivered %llu dropped %llu expired %llu lost %llu "
                   "in flight %llu rejected %llu; sessions %zu\n",
                   U(t.accepted), U(t.delivered), U(t.dropped), U(t.expired), U(t.lost_in_store),
                   U(t.in_flight), U(t.rejected), sessions_.session_count());
    }
    // As Daemon::Shutdown: end the sessions, close every connection, let the
    // loop run the close callbacks; then nothing may be left open.
    sessions_.EndAll();
    store_.Close();
    for (auto& c : slots_) {
      if (c != nullptr) c->Close();
    }
    FreeClosed();
    uv_run(loop_, UV_RUN_DEFAULT);
    Check(uv_loop_close(loop_) == 0, "a handle was left open on the loop");
  }

  void Step(ByteReader& in) {
    const auto op = static_cast<Op>(in.Below(kOpCount));
    const int slot = static_cast<int>(in.Below(kSlots));
    if (trace_) std::fprintf(stderr, "step: op %d on connection %d\n", op, slot);
    switch (op) {
      case kHello: Queue(slot, Hello(in)); break;
      case kAttach: Queue(slot, Attach(in)); break;
      case kSend: Queue(slot, Send(in)); break;
      case kOutcomes: Queue(slot, Outcomes(in)); break;
      case kFetch: {
        wire::Frame f;
        f.mutable_fetch()->set_max_count(in.Below(6));
        f.mutable_fetch()->set_timeout_ms(in.Below(3));
        Queue(slot, f);
        break;
      }
      case kReceive: {
        wire::Frame f;
        f.mutable_receive()->set_max_count(in.Below(6));
        f.mutable_receive()->set_timeout_ms(in.Below(3));
        Queue(slot, f);
        break;
      }
      case kBye: {
        wire::Frame f;
        f.mutable_bye();
        Queue(slot, f);
        break;
      }
      case kPingOrStats: {
        wire::Frame f;
        if (in.Byte() & 1) {
          f.mutable_stats_request();
        } else {
          f.mutable_ping()->set_nonce(in.Byte());
        }
        Queue(slot, f);
        break;
      }
      case kGarbage: Garbage(slot, in.Bytes(in.Byte())); break;
      case kHangUp: HangUp(slot); break;
      case kPeerReads: PeerReads(slot); break;
      case kTimePasses: TimePasses(in.Byte()); break;
      case kOpCount: break;
    }
    DeliverInbound();
    // What the daemon's prepare handle does before the loop sleeps, then
    // the close callbacks of this pass.
    data_.RunPumps();
    FreeClosed();
    CheckLedger();
  }

  // PeerMemory
  void SawToken(const std::string& token) override { Remember(tokens_, token); }
  void SawTransit(std::uint64_t id) override { Remember(transits_, id); }

 private:
  static unsigned long long U(std::uint64_t v) { return v; }
  static uv_loop_t* InitLoop(uv_loop_t* loop) {
    uv_loop_init(loop);
    return loop;
  }
  template <typename T>
  static void Remember(std::vector<T>& list, T value) {
    if (list.size() == kRemembered) list.erase(list.begin());
    list.push_back(std::move(value));
  }

  FakeClientConnection& At(int slot) {
    if (slots_[slot] == nullptr) slots_[slot] = std::make_unique<FakeClientConnection>(slot, *this, config_.max_frame_bytes);
    return *slots_[slot];
  }
  void Queue(int slot, wire::Frame frame) {
    FakeClientConnection& c = At(slot);
    if (!c.closed()) c.inbound().push_back(std::move(frame));
  }

  std::string TokenFrom(ByteReader& in) {
    const std::uint8_t pick = in.Byte();
    if (tokens_.empty() || pick == 0xff) return pick & 1 ? "" : "not-a-token";
    return tokens_[pick % tokens_.size()];
  }

  wire::Frame Hello(ByteReader& in) {
    const std::uint8_t bits = in.Byte();
    wire::Frame f;
    wire::Hello* h = f.mutable_hello();
    h->set_protocol_version((bits & 8) ? 7 : wire::kProtocolVersion);
    h->set_role((bits & 1) ? wire::ROLE_SIM : wire::ROLE_APP);
    if ((bits & 0x81) == 0x80) h->set_role(wire::ROLE_UNSPECIFIED);
    h->set_mode((bits & 2) ? wire::PULL : wire::PUSH);
    h->set_shared_connection(bits & 4);
    h->set_client_id(kIds[in.Below(kIds.size())]);
    if (bits & 16) h->set_auth_token(kAuthToken);
    if (bits & 32) h->set_auth_token("wrong");
    if (bits & 64) h->set_resume_token(TokenFrom(in));
    return f;
  }

  wire::Frame Attach(ByteReader& in) {
    const std::uint8_t bits = in.Byte();
    wire::Frame f;
    wire::Attach* a = f.mutable_attach();
    a->set_channel(static_cast<wire::Channel>(bits & 3));
    if (bits & 4) a->set_auth_token(kAuthToken);
    a->set_session_token(TokenFrom(in));
    return f;
  }

  wire::Frame Send(ByteReader& in) {
    const std::uint8_t bits = in.Byte();
    wire::Frame f;
    wire::Send* s = f.mutable_send();
    const std::uint32_t dst = in.Below(kIds.size() + 2);
    if (dst < kIds.size()) {
      s->set_dst(kIds[dst]);
    } else if (dst == kIds.size()) {
      s->set_dst("absent-" + std::to_string(in.Byte()));  // many distinct absent names
    } else {
      s->set_dst(std::string(in.Byte() * 8u, 'x'));  // long names, empty included
    }
    s->set_payload(std::string(in.Byte(), 'p'));
    s->set_t_send(in.Byte());
    s->set_tclass(bits & 3);
    s->set_notify_drop(bits & 4);
    return f;
  }

  wire::Frame Outcomes(ByteReader& in) {
    wire::Frame f;
    const std::uint32_t n = 1 + in.Below(8);
    for (std::uint32_t i = 0; i < n; ++i) {
      wire::Outcome* o = f.mutable_outcomes()->add_outcomes();
      const std::uint8_t pick = in.Byte();
      o->set_id(transits_.empty() || pick == 0xff ? pick : transits_[pick % transits_.size()]);
      o->set_status(static_cast<wire::OutcomeStatus>(in.Below(4)));
      o->set_t_deliver(in.Byte());
    }
    return f;
  }

  // Bytes that parse as a Frame are routed; others break the stream, which
  // Connection answers with BAD_FRAME and treats as a lost connection.
  void Garbage(int slot, const std::string& bytes) {
    wire::Frame f;
    if (f.ParseFromString(bytes)) {
      Queue(slot, std::move(f));
      return;
    }
    FakeClientConnection& c = At(slot);
    if (c.closed()) return;
    c.SendError(wire::BAD_FRAME, "malformed frame", 0, false);
    sessions_.OnChannelLost(c);
  }

  void HangUp(int slot) {
    if (slots_[slot] == nullptr || slots_[slot]->closed()) return;
    sessions_.OnChannelLost(*slots_[slot]);
  }

  void PeerReads(int slot) {
    FakeClientConnection* c = slots_[slot].get();
    if (c == nullptr || c->closed()) return;
    if (c->Drain() && c->session() != nullptr) data_.OnWritable(*c->session());
  }

  // Housekeeping as if `ms` had passed since the loop's time; then one
  // non-blocking pass of the loop (long-poll timers that are due).
  void TimePasses(std::uint8_t ms) {
    skew_ms_ += ms;
    uv_update_time(loop_);
    const std::uint64_t now = uv_now(loop_) + skew_ms_;
    sessions_.ExpireLingering(now);
    data_.Housekeeping(now);
    uv_run(loop_, UV_RUN_NOWAIT);
  }

  // Frames reach the router in order, per connection, while it reads.
  void DeliverInbound() {
    for (bool moved = true; moved;) {
      moved = false;
      for (auto& c : slots_) {
        if (c == nullptr || c->closed() || c->reading_paused() || c->inbound().empty()) continue;
        wire::Frame frame = std::move(c->inbound().front());
        c->inbound().pop_front();
        router_.Route(*c, frame);
        moved = true;
      }
    }
  }

  // Closed connections are forgotten and freed, as after libuv's close.
  void FreeClosed() {
    for (auto& c : slots_) {
      if (c == nullptr || !c->closed()) continue;
      sessions_.OnConnectionClosed(*c);
      c.reset();
    }
  }

  void CheckLedger() {
    CheckIdentity(data_.ledger().totals(), "ledger identity (totals)");
    // Entries nothing refers to any more are freed with their counters, so
    // only what is in flight (a message holds its sender's entry) must add up.
    std::uint64_t in_flight = 0;
    for (const daemon::ClientEntry& e : apps_) {
      CheckIdentity(e.counters, "ledger identity (one app)");
      in_flight += e.counters.in_flight;
    }
    const daemon::MessageCounters& t = data_.ledger().totals();
    Check(in_flight == t.in_flight, "apps' in_flight adds up to the total", in_flight,
          t.in_flight);
  }

  daemon::DaemonConfig config_;
  uv_loop_t uv_loop_;
  uv_loop_t* loop_;
  daemon::InMemoryPayloadStore store_;
  daemon::ClientRegistry apps_;
  daemon::ClientRegistry sims_;
  daemon::SessionManager sessions_;
  daemon::DataPlane data_;
  daemon::StatsReport report_;
  daemon::FrameRouter router_;
  std::array<std::unique_ptr<FakeClientConnection>, kSlots> slots_;
  std::vector<std::string> tokens_;
  std::vector<std::uint64_t> transits_;
  std::uint64_t skew_ms_ = 0;
  const bool trace_ = std::getenv("TRESTLE_FUZZ_TRACE") != nullptr;
};

}  // namespace
}  // namespace trestle::fuzz

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  spdlog::set_level(spdlog::level::off);  // the daemon's warnings are expected here
  google::protobuf::SetLogHandler(nullptr);  // garbage frames with invalid UTF-8 strings
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  trestle::fuzz::ByteReader in(data, size);
  trestle::fuzz::DispatchHarness harness(in.Byte());
  constexpr int kMaxSteps = 512;  // bounded work per input
  for (int step = 0; step < kMaxSteps && !in.empty(); ++step) harness.Step(in);
  return 0;
}

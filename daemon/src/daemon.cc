// Daemon::Impl owns the loop and everything on it: the listeners and their
// connections, the session manager (control plane), the data plane, the
// frame router between them, and the admin service's view of it all.
#include "trestle/daemon/daemon.h"

#include <malloc.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "admin/admin_backend.h"
#include "admin/admin_server.h"
#include "admin/loop_task_queue.h"
#include "admin/metrics_http_server.h"
#include "admin/stats_report.h"
#include "dataplane/data_plane.h"
#include "drain_coordinator.h"
#include "federation/bridge_links.h"
#include "frame_router.h"
#include "messages/client_registry.h"
#include "net/connection.h"
#include "net/listeners.h"
#include "session/pending_handshakes.h"
#include "session/session.h"
#include "session_manager.h"
#include "store/fallback_payload_store.h"
#include "store/in_memory_payload_store.h"
#include "store/redis_payload_store.h"
#include "trestle/daemon/listen_address.h"
#include "trestle/platform/open_file_limit.h"
#include "trestle/platform/uv_handle.h"
#include "trestle/wire/framed_stream.h"

namespace trestle::daemon {
namespace {

// Lets one process hold as many connections as `max_clients` need (three
// each, or one with Hello.shared_connection) and says so when it cannot.
void RaiseOpenFileLimit(std::uint64_t max_clients) {
  constexpr std::uint64_t kSpareFiles = 64;  // listeners, logs, admin, Redis
  const std::uint64_t limit = platform::RaiseOpenFileLimit(max_clients * 3 + kSpareFiles);
  const std::uint64_t files = limit > kSpareFiles ? limit - kSpareFiles : 0;
  if (files < max_clients) {
    spdlog::warn("open-file limit {} allows about {} clients even with one shared connection "
                 "each ({} with three), fewer than max_clients {}; raise the hard limit (ulimit "
                 "-Hn, systemd LimitNOFILE)",
                 limit, files, files / 3, max_clients);
  } else if (files < max_clients * 3) {
    spdlog::info("open-file limit {}: max_clients {} fit with one shared connection each; with "
                 "three connections each, about {}",
                 limit, max_clients, files / 3);
  } else {
    spdlog::debug("open-file limit {} (about {} clients)", limit, files / 3);
  }
}

// How often expiries, lingering sessions, slow apps and handshakes are
// checked: a quarter of the shortest of those periods, between 10 ms and 1 s.
std::uint64_t HousekeepingTickMs(const DaemonConfig& c) {
  const std::uint64_t shortest =
      std::min({c.delivery_ttl_ms, std::max<std::uint64_t>(c.session_linger_ms, 1),
                std::max<std::uint64_t>(c.slow_app_grace_ms, 1), c.handshake_timeout_ms});
  return std::clamp<std::uint64_t>(shortest / 4, 10, 1000);
}

}  // namespace

class Daemon::Impl final : public ConnectionOwner, public AdminBackend {
 public:
  explicit Impl(DaemonConfig config)
      : config_(std::move(config)),
        flush_queue_((uv_loop_init(&loop_), &loop_)),
        tasks_(&loop_),
        store_(MakeStore()),
        sessions_(&loop_, config_, apps_, sims_),
        bridge_(config_.federate ? std::make_unique<BridgeLinks>(&loop_, config_) : nullptr),
        data_(&loop_, config_, *store_, apps_, sims_, sessions_, bridge_.get(), fallback_),
        report_(apps_, sims_, data_),
        router_(sessions_, data_, report_),
        drains_(&loop_, data_.ledger()),
        listeners_(&loop_, [this](uv_stream_t* server, wire::FramedStream::Kind kind) {
          Accept(server, kind);
        }),
        handshakes_(config_.handshake_timeout_ms) {
    sessions_.set_data_plane(&data_);
    if (bridge_) sessions_.set_directory(&bridge_->directory());
  }

  ~Impl() override {
    // Run() closes every handle; a daemon that never ran closes them here.
    if (!ran_) {
      CloseBridge();
      store_->Close();
      CloseHandles();
      uv_run(&loop_, UV_RUN_DEFAULT);
    }
    uv_loop_close(&loop_);
  }

  absl::Status Start();
  int Run();
  void Shutdown();
  std::uint16_t port() const { return listeners_.tcp_port(); }

  // ConnectionOwner
  void OnFrame(Connection& socket, ClientConnection& c, wire::Frame& frame) override {
    // A Hello is answered at once, or (federated) once its client id is
    // claimed, which always ends: the handshake deadline no longer applies.
    const bool hello = frame.has_hello();
    const bool attach = frame.has_attach();
    router_.Route(c, frame);
    if (hello || (attach && c.channel() != wire::CHANNEL_UNSPECIFIED)) handshakes_.Remove(&socket);
  }
  void OnConnectionLost(ClientConnection& c) override { sessions_.OnChannelLost(c); }
  void OnWritable(ClientConnection& c) override {
    if (c.session() != nullptr) data_.OnWritable(*c.session());
  }
  void OnLaneFreed(Lane& lane) override { sessions_.OnConnectionClosed(lane); }
  void OnConnectionClosed(Connection& c) override {
    handshakes_.Remove(&c);
    sessions_.OnConnectionClosed(c);
    connections_.erase(&c);
    delete &c;
  }

  // AdminBackend (loop thread)
  void FillStatus(admin::StatusReply* reply) override;
  void FillClients(const admin::ListClientsRequest& request,
                   admin::ListClientsReply* reply) override {
    report_.FillClients(request, reply);
  }
  void FillStats(admin::StatsReply* reply) override;
  void StartDrain(std::uint32_t timeout_ms,
                  std::function<void(const admin::DrainReply&)> done) override {
    if (!data_.draining()) spdlog::info("draining: no new app sessions or sends");
    data_.set_draining(true);
    drains_.Add(timeout_ms, std::move(done));
  }
  void RequestShutdown() override { Shutdown(); }

 private:
  void Accept(uv_stream_t* server, wire::FramedStream::Kind kind);
  void ExpireHandshakes(std::uint64_t now_ms);
  PayloadStorePtr MakeStore() {
    if (config_.store == StoreKind::kMemory) return std::make_unique<InMemoryPayloadStore>();
    RedisPayloadStore::Options options;
    options.key_ttl_ms = config_.store_key_ttl_ms;
    // Federated, the bridge's daemons take each other's payloads by id; the
    // prefix is the one Welcome tells clients.
    options.key_prefix = PayloadKeyPrefix(config_);
    if (!config_.federate) return std::make_unique<RedisPayloadStore>(&loop_, config_.store_url, options);
    // A payload in the shared store is the proof that its message is not
    // finished: a take leaves it there until the app's Ack.
    options.keep_taken = true;
    // Payloads stay in memory until their message leaves the daemon; with a
    // journal, only through an outage of Redis.
    auto store = std::make_unique<FallbackPayloadStore>(
        std::make_unique<RedisPayloadStore>(&loop_, config_.store_url, options),
        config_.journal ? FallbackPayloadStore::Mode::kSharedFirst
                        : FallbackPayloadStore::Mode::kMemoryFirst);
    fallback_ = store.get();
    return store;
  }
  void StartTimers();
  // Federation: the bridge's connection, directory and streams.
  absl::Status JoinBridge();
  void CloseBridge();
  absl::Status StartAdminAndMetrics();
  absl::Status WritePortFile();
  void SampleRates();
  void CloseHandles();

  DaemonConfig config_;
  uv_loop_t loop_;
  wire::FlushQueue flush_queue_;
  LoopTaskQueue tasks_;
  FallbackPayloadStore* fallback_ = nullptr;  // store_, when federated (set by MakeStore)
  PayloadStorePtr store_;
  ClientRegistry apps_;
  ClientRegistry sims_;
  SessionManager sessions_;
  std::unique_ptr<MessageTrace> trace_;  // before data_: outlives the ledger
  // Federation only. Before data_, whose router uses it; closed (CloseBridge)
  // before anything is destroyed, so that its last answers find the router.
  std::unique_ptr<BridgeLinks> bridge_;
  DataPlane data_;
  StatsReport report_;
  FrameRouter router_;
  DrainCoordinator drains_;
  Listeners listeners_;
  absl::flat_hash_set<Connection*> connections_;
  PendingHandshakes handshakes_;
  platform::UvHandle<uv_prepare_t> pump_;
  platform::UvHandle<uv_timer_t> housekeeping_;
  platform::UvHandle<uv_signal_t> sigint_;
  platform::UvHandle<uv_signal_t> sigterm_;
  platform::UvHandle<uv_timer_t> rates_;
  std::unique_ptr<AdminServer> admin_;
  std::unique_ptr<MetricsHttpServer> metrics_;
  std::uint16_t admin_port_ = 0;
  std::uint16_t metrics_port_ = 0;
  std::uint64_t start_ms_ = 0;
  // Totals one second ago and the rates derived from them.
  std::uint64_t last_accepted_ = 0;
  std::uint64_t last_delivered_ = 0;
  double accepted_per_s_ = 0;
  double delivered_per_s_ = 0;
  bool shutting_down_ = false;
  bool ran_ = false;
};

void Daemon::Impl::StartTimers() {
  pump_.Init(uv_prepare_init, &loop_);
  pump_->data = this;
  // Before the loop sleeps: write what this pass made ready, then flush.
  uv_prepare_start(pump_.get(), [](uv_prepare_t* p) {
    auto* self = static_cast<Impl*>(p->data);
    self->data_.RunPumps();
    if (self->drains_.waiting()) self->drains_.Check();
    self->flush_queue_.FlushAll();
  });
  housekeeping_.Init(uv_timer_init, &loop_);
  housekeeping_->data = this;
  const std::uint64_t tick = HousekeepingTickMs(config_);
  uv_timer_start(housekeeping_.get(), [](uv_timer_t* t) {
    auto* self = static_cast<Impl*>(t->data);
    const std::uint64_t now = uv_now(&self->loop_);
    self->sessions_.ExpireLingering(now);
    self->data_.Housekeeping(now);
    self->ExpireHandshakes(now);
    // Tables that shrank after a burst give their room back, and malloc
    // gives the freed pages back to the system, so that the daemon's memory
    // follows its load down as well as up.
    if (self->data_.Compact()) malloc_trim(0);
  }, tick, tick);
  rates_.Init(uv_timer_init, &loop_);
  rates_->data = this;
  uv_timer_start(rates_.get(), [](uv_timer_t* t) { static_cast<Impl*>(t->data)->SampleRates(); },
                 1000, 1000);
  sigint_.Init(uv_signal_init, &loop_);
  sigterm_.Init(uv_signal_init, &loop_);
  sigint_->data = sigterm_->data = this;
  auto on_signal = [](uv_signal_t* s, int signum) {
    spdlog::info("signal {}: shutting down", signum);
    static_cast<Impl*>(s->data)->Shutdown();
  };
  uv_signal_start(sigint_.get(), on_signal, SIGINT);
  uv_signal_start(sigterm_.get(), on_signal, SIGTERM);
  std::signal(SIGPIPE, SIG_IGN);
}

absl::Status Daemon::Impl::Start() {
  RaiseOpenFileLimit(config_.max_clients);
  StartTimers();
  start_ms_ = uv_now(&loop_);
  if (absl::Status s = store_->Open(); !s.ok()) return s;
  if (absl::Status s = JoinBridge(); !s.ok()) return s;
  if (!config_.trace_file.empty()) {
    absl::StatusOr<std::unique_ptr<MessageTrace>> trace = MessageTrace::Open(config_.trace_file);
    if (!trace.ok()) return trace.status();
    trace_ = *std::move(trace);
    data_.SetTrace(trace_.get());
  }
  if (absl::Status s = listeners_.ListenTcp(config_.listen); !s.ok()) return s;
  if (absl::Status s = listeners_.ListenUnix(config_.unix_socket); !s.ok()) return s;
  if (absl::Status s = StartAdminAndMetrics(); !s.ok()) return s;
  if (absl::Status s = WritePortFile(); !s.ok()) return s;
  spdlog::info("trestled listening on {} (port {}){}{}; admin port {}, metrics port {}; "
               "daemon id {}, store {}, simulators {}, time {}",
               config_.listen, port(),
               config_.unix_socket.empty() ? "" : " and ", config_.unix_socket, admin_port_,
               metrics_port_, config_.daemon_id, store_->name(), SimAssignmentName(config_.sim_assignment),
               wire::TimeModeName(config_.time_mode));
  return absl::OkStatus();
}

absl::Status Daemon::Impl::JoinBridge() {
  if (!bridge_) return absl::OkStatus();
  if (absl::Status s = bridge_->Open(); !s.ok()) return s;
  if (absl::Status s = data_.federation()->Join(uv_now(&loop_)); !s.ok()) return s;
  spdlog::info("joined bridge run '{}' as daemon {} (stream {})", config_.run, config_.daemon_id,
               bridge_->streams().stream());
  return absl::OkStatus();
}

void Daemon::Impl::CloseBridge() {
  if (bridge_) bridge_->Close();
}

absl::Status Daemon::Impl::StartAdminAndMetrics() {
  if (!config_.admin_listen.empty()) {
    admin_ = std::make_unique<AdminServer>(tasks_, *this, config_.auth_token);
    auto port = admin_->Start(config_.admin_listen);
    if (!port.ok()) return port.status();
    admin_port_ = *port;
  }
  if (!config_.metrics_listen.empty()) {
    auto address = ParseListenAddress(config_.metrics_listen);
    if (!address.ok()) return address.status();
    metrics_ = std::make_unique<MetricsHttpServer>(tasks_, *this, config_.auth_token);
    auto port = metrics_->Start(address->host, address->port);
    if (!port.ok()) return port.status();
    metrics_port_ = *port;
  }
  return absl::OkStatus();
}

absl::Status Daemon::Impl::WritePortFile() {
  if (config_.port_file.empty()) return absl::OkStatus();
  const std::string tmp = config_.port_file + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "w");
  if (f == nullptr || std::fprintf(f, "%u\n%u\n%u\n", port(), admin_port_, metrics_port_) < 0 ||
      std::fclose(f) != 0 || std::rename(tmp.c_str(), config_.port_file.c_str()) != 0) {
    return absl::UnavailableError(absl::StrCat("port_file: cannot write ", config_.port_file));
  }
  return absl::OkStatus();
}

void Daemon::Impl::FillStatus(admin::StatusReply* reply) {
  reply->set_version(TRESTLE_VERSION);
  reply->set_uptime_ms(uv_now(&loop_) - start_ms_);
  reply->set_store(std::string(store_->name()));
  reply->set_time_mode(std::string(wire::TimeModeName(config_.time_mode)));
  reply->set_sim_assignment(std::string(SimAssignmentName(config_.sim_assignment)));
  data_.ledger().totals().CopyTo(reply->mutable_totals());
  reply->set_sessions(sessions_.session_count());
  reply->set_connections(connections_.size());
  reply->set_draining(data_.draining());
  reply->set_pid(static_cast<std::uint32_t>(getpid()));
  reply->set_listen(config_.listen);
  if (data_.time() != nullptr) data_.time()->FillStats(reply->mutable_lockstep());
  if (bridge_) {
    admin::BridgeStatus* bridge = reply->mutable_bridge();
    const BridgeDirectory::Totals& t = bridge_->directory().totals();
    bridge->set_run(config_.run);
    bridge->set_daemon_id(config_.daemon_id);
    for (std::uint32_t d : t.daemons) bridge->add_daemons(d);
    t.counters.CopyTo(bridge->mutable_totals());
    bridge->set_age_ms(t.at_ms == 0 ? 0 : uv_now(&loop_) - t.at_ms);
  }
}

void Daemon::Impl::FillStats(admin::StatsReply* reply) {
  report_.FillStageLatencies(reply);
  reply->set_accepted_per_s(accepted_per_s_);
  reply->set_delivered_per_s(delivered_per_s_);
}

void Daemon::Impl::SampleRates() {
  const MessageCounters& t = data_.ledger().totals();
  accepted_per_s_ = static_cast<double>(t.accepted - last_accepted_);
  delivered_per_s_ = static_cast<double>(t.delivered - last_delivered_);
  last_accepted_ = t.accepted;
  last_delivered_ = t.delivered;
}

int Daemon::Impl::Run() {
  ran_ = true;
  uv_run(&loop_, UV_RUN_DEFAULT);
  // Off the loop now: admin handlers waiting for it get "unavailable".
  if (admin_ != nullptr) admin_->Stop();
  if (metrics_ != nullptr) metrics_->Stop();
  const MessageCounters& t = data_.ledger().totals();
  spdlog::info("trestled stopped: accepted {} delivered {} dropped {} expired {} lost in store {} "
               "in flight {}",
               t.accepted, t.delivered, t.dropped, t.expired, t.lost_in_store, t.in_flight);
  return 0;
}

void Daemon::Impl::CloseHandles() {
  listeners_.Close();
  pump_.Close();
  housekeeping_.Close();
  sigint_.Close();
  sigterm_.Close();
  rates_.Close();
  drains_.Close();
  tasks_.Close();
  flush_queue_.Close();
}

void Daemon::Impl::Shutdown() {
  if (shutting_down_) return;
  shutting_down_ = true;
  data_.RunPumps();  // what this pass made ready goes first (a peer daemon's batch, say)
  sessions_.EndAll();
  CloseBridge();
  store_->Close();
  std::vector<Connection*> rest(connections_.begin(), connections_.end());
  for (Connection* c : rest) c->Close();
  flush_queue_.FlushAll();
  CloseHandles();
}

void Daemon::Impl::Accept(uv_stream_t* server, wire::FramedStream::Kind kind) {
  // Small frames only until the handshake succeeds (SessionManager lifts it).
  auto* c = new Connection(*this, &loop_, kind, &flush_queue_, config_.handshake_max_frame_bytes);
  connections_.insert(c);
  handshakes_.Add(c, uv_now(&loop_));
  int rc = uv_accept(server, c->stream().handle());
  if (rc == 0) rc = c->stream().StartReading();
  if (rc != 0) {
    // Typically EMFILE: the open-file limit is too low for this many clients.
    spdlog::warn("cannot accept a connection: {}", uv_strerror(rc));
    c->Close();
  }
}

void Daemon::Impl::ExpireHandshakes(std::uint64_t now_ms) {
  handshakes_.Expire(now_ms, [this](ClientConnection& c) {
    c.SendError(wire::BAD_REQUEST,
                absl::StrCat("no Hello or Attach within ", config_.handshake_timeout_ms,
                             " ms (handshake_timeout_ms): closing the connection"),
                0, true);
  });
}

Daemon::Daemon(DaemonConfig config) : impl_(std::make_unique<Impl>(std::move(config))) {}
Daemon::~Daemon() = default;
absl::Status Daemon::Start() { return impl_->Start(); }
int Daemon::Run() { return impl_->Run(); }
void Daemon::Shutdown() { impl_->Shutdown(); }
std::uint16_t Daemon::port() const { return impl_->port(); }

}  // namespace trestle::daemon

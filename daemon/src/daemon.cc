// Daemon::Impl owns the loop and everything on it: listeners, connections,
// the session manager (control plane) and the relay (data plane). It routes
// each frame by channel and role, and refuses, without closing anything,
// an operation the role or channel may not do.
#include "trestle/daemon/daemon.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "admin_backend.h"
#include "admin_server.h"
#include "client_registry.h"
#include "connection.h"
#include "in_memory_payload_store.h"
#include "loop_task_queue.h"
#include "metrics_http_server.h"
#include "redis_payload_store.h"
#include "relay.h"
#include "session.h"
#include "session_manager.h"
#include "trestle/daemon/listen_address.h"
#include "trestle/wire/framed_stream.h"

namespace trestle::daemon {
namespace {

std::string FrameName(const wire::Frame& frame) {
  const auto* field = wire::Frame::descriptor()->FindFieldByNumber(frame.body_case());
  return field == nullptr ? "an empty frame" : std::string(field->name());
}

// Lets one process hold as many connections as it may: the soft limit goes
// to the hard one, and the hard one up to what `max_clients` needs where the
// process is allowed to (CAP_SYS_RESOURCE). A client holds three connections,
// or one when it shares (Hello.shared_connection). Says so when it is short.
void RaiseOpenFileLimit(std::uint64_t max_clients) {
  constexpr std::uint64_t kSpareFiles = 64;  // listeners, logs, admin, Redis
  const std::uint64_t wanted = max_clients * 3 + kSpareFiles;
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0) return;
  if (lim.rlim_max < wanted) {
    rlimit raised{wanted, wanted};
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) lim = raised;
  }
  if (lim.rlim_cur < lim.rlim_max) {
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
  }
  const std::uint64_t files = lim.rlim_cur > kSpareFiles ? lim.rlim_cur - kSpareFiles : 0;
  if (files < max_clients) {
    spdlog::warn("open-file limit {} allows about {} clients even with one shared connection "
                 "each ({} with three), fewer than max_clients {}; raise the hard limit (ulimit "
                 "-Hn, systemd LimitNOFILE)",
                 lim.rlim_cur, files, files / 3, max_clients);
  } else if (lim.rlim_cur < wanted) {
    spdlog::info("open-file limit {}: max_clients {} fit with one shared connection each; with "
                 "three connections each, about {}",
                 lim.rlim_cur, max_clients, files / 3);
  } else {
    spdlog::debug("open-file limit {} (about {} clients)", lim.rlim_cur, files / 3);
  }
}

}  // namespace

class Daemon::Impl final : public ConnectionOwner, public AdminBackend {
 public:
  explicit Impl(DaemonConfig config)
      : config_(std::move(config)),
        flush_queue_((uv_loop_init(&loop_), &loop_)),
        tasks_(&loop_),
        store_(MakeStore()),
        relay_(&loop_, config_, *store_, apps_, sims_),
        sessions_(&loop_, config_, apps_, sims_, relay_) {
    loop_.data = &relay_;
  }

  ~Impl() override {
    // Run() closes every handle; a daemon that never ran closes them here.
    if (!ran_) {
      store_->Close();
      CloseHandles();
      uv_run(&loop_, UV_RUN_DEFAULT);
    }
    uv_loop_close(&loop_);
  }

  absl::Status Start();
  int Run();
  void Shutdown();
  std::uint16_t port() const { return port_; }

  // ConnectionOwner
  void OnFrame(Connection& c, wire::Frame& frame) override;
  void OnConnectionLost(Connection& c) override { sessions_.OnChannelLost(c); }
  void OnWritable(Connection& c) override {
    if (c.session != nullptr) relay_.OnWritable(*c.session);
  }
  void OnConnectionClosed(Connection& c) override {
    sessions_.OnConnectionClosed(c);
    connections_.erase(&c);
    delete &c;
  }

  // AdminBackend (loop thread)
  void FillStatus(admin::StatusReply* reply) override;
  void FillClients(admin::ListClientsReply* reply) override { relay_.FillClients(reply); }
  void FillStats(admin::StatsReply* reply) override;
  void StartDrain(std::uint32_t timeout_ms,
                  std::function<void(const admin::DrainReply&)> done) override;
  void RequestShutdown() override { Shutdown(); }

 private:
  static void OnTcpConnection(uv_stream_t* server, int status);
  static void OnPipeConnection(uv_stream_t* server, int status);
  void Accept(uv_stream_t* server, wire::FramedStream::Kind kind, int status);
  void RouteCtrl(Connection& c, wire::Frame& frame);
  // Data frames of the send and recv channels; false when the role may not.
  bool RouteSend(Session& s, wire::Frame& frame);
  bool RouteRecv(Session& s, const wire::Frame& frame);
  void Refuse(Connection& c, const wire::Frame& frame);
  PayloadStorePtr MakeStore() {
    if (config_.store == "memory") return std::make_unique<InMemoryPayloadStore>();
    return std::make_unique<RedisPayloadStore>(&loop_, config_.store);
  }
  absl::Status ListenTcp();
  absl::Status ListenUnix();
  absl::Status StartAdminAndMetrics();
  absl::Status WritePortFile();
  void FinishDrains();
  void SampleRates();
  void CloseHandles();

  struct DrainWaiter {
    std::uint64_t deadline_ms;
    std::function<void(const admin::DrainReply&)> done;
  };

  DaemonConfig config_;
  uv_loop_t loop_;
  wire::FlushQueue flush_queue_;
  LoopTaskQueue tasks_;
  PayloadStorePtr store_;
  ClientRegistry apps_;
  ClientRegistry sims_;
  Relay relay_;
  SessionManager sessions_;
  absl::flat_hash_set<Connection*> connections_;
  uv_tcp_t tcp_server_;
  uv_pipe_t pipe_server_;
  uv_prepare_t pump_;
  uv_timer_t housekeeping_;
  uv_signal_t sigint_;
  uv_signal_t sigterm_;
  uv_timer_t rates_;
  uv_timer_t drain_timer_;  // fires at the earliest drain deadline
  std::unique_ptr<AdminServer> admin_;
  std::unique_ptr<MetricsHttpServer> metrics_;
  std::uint16_t admin_port_ = 0;
  std::uint16_t metrics_port_ = 0;
  std::uint64_t start_ms_ = 0;
  std::vector<DrainWaiter> drains_;
  // Totals one second ago and the rates derived from them.
  std::uint64_t last_accepted_ = 0;
  std::uint64_t last_delivered_ = 0;
  double accepted_per_s_ = 0;
  double delivered_per_s_ = 0;
  bool tcp_open_ = false;
  bool pipe_open_ = false;
  bool handles_open_ = false;
  bool shutting_down_ = false;
  bool ran_ = false;
  std::uint16_t port_ = 0;
};

absl::Status Daemon::Impl::ListenTcp() {
  auto address = ParseListenAddress(config_.listen);
  if (!address.ok()) return address.status();
  sockaddr_storage storage{};
  int rc = address->host.find(':') == std::string::npos
               ? uv_ip4_addr(address->host.c_str(), address->port,
                             reinterpret_cast<sockaddr_in*>(&storage))
               : uv_ip6_addr(address->host.c_str(), address->port,
                             reinterpret_cast<sockaddr_in6*>(&storage));
  if (rc != 0) return absl::InvalidArgumentError(absl::StrCat("listen: ", config_.listen, ": ", uv_strerror(rc)));
  uv_tcp_init(&loop_, &tcp_server_);
  tcp_server_.data = this;
  tcp_open_ = true;
  rc = uv_tcp_bind(&tcp_server_, reinterpret_cast<sockaddr*>(&storage), 0);
  if (rc == 0) rc = uv_listen(reinterpret_cast<uv_stream_t*>(&tcp_server_), 4096, &OnTcpConnection);
  if (rc != 0) {
    return absl::UnavailableError(absl::StrCat("listen: cannot listen on ", config_.listen, ": ",
                                               uv_strerror(rc)));
  }
  sockaddr_storage bound{};
  int len = sizeof bound;
  uv_tcp_getsockname(&tcp_server_, reinterpret_cast<sockaddr*>(&bound), &len);
  port_ = ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  return absl::OkStatus();
}

absl::Status Daemon::Impl::ListenUnix() {
  if (config_.unix_socket.empty()) return absl::OkStatus();
  // A socket file left by a daemon that died is removed; any other file is not.
  struct stat st {};
  if (lstat(config_.unix_socket.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) {
    unlink(config_.unix_socket.c_str());
  }
  uv_pipe_init(&loop_, &pipe_server_, 0);
  pipe_server_.data = this;
  pipe_open_ = true;
  int rc = uv_pipe_bind(&pipe_server_, config_.unix_socket.c_str());
  if (rc == 0) rc = uv_listen(reinterpret_cast<uv_stream_t*>(&pipe_server_), 4096, &OnPipeConnection);
  if (rc != 0) {
    return absl::UnavailableError(absl::StrCat("unix_socket: cannot listen on ",
                                               config_.unix_socket, ": ", uv_strerror(rc)));
  }
  return absl::OkStatus();
}

absl::Status Daemon::Impl::Start() {
  RaiseOpenFileLimit(config_.max_clients);
  handles_open_ = true;
  uv_prepare_init(&loop_, &pump_);
  pump_.data = this;
  // Before the loop sleeps: write what this pass made ready, then flush.
  uv_prepare_start(&pump_, [](uv_prepare_t* p) {
    auto* self = static_cast<Impl*>(p->data);
    self->relay_.RunPumps();
    if (!self->drains_.empty()) self->FinishDrains();
    self->flush_queue_.FlushAll();
  });
  uv_timer_init(&loop_, &housekeeping_);
  housekeeping_.data = this;
  const std::uint64_t tick = std::clamp<std::uint64_t>(
      std::min(config_.delivery_ttl_ms, std::max<std::uint64_t>(config_.session_linger_ms, 1)) / 4,
      10, 1000);
  uv_timer_start(&housekeeping_, [](uv_timer_t* t) {
    auto* self = static_cast<Impl*>(t->data);
    const std::uint64_t now = uv_now(&self->loop_);
    self->sessions_.ExpireLingering(now);
    self->relay_.ExpireDeliveries(now);
  }, tick, tick);
  uv_timer_init(&loop_, &drain_timer_);
  drain_timer_.data = this;
  uv_timer_init(&loop_, &rates_);
  rates_.data = this;
  uv_timer_start(&rates_, [](uv_timer_t* t) { static_cast<Impl*>(t->data)->SampleRates(); },
                 1000, 1000);
  start_ms_ = uv_now(&loop_);
  uv_signal_init(&loop_, &sigint_);
  uv_signal_init(&loop_, &sigterm_);
  sigint_.data = sigterm_.data = this;
  auto on_signal = [](uv_signal_t* s, int signum) {
    spdlog::info("signal {}: shutting down", signum);
    static_cast<Impl*>(s->data)->Shutdown();
  };
  uv_signal_start(&sigint_, on_signal, SIGINT);
  uv_signal_start(&sigterm_, on_signal, SIGTERM);
  std::signal(SIGPIPE, SIG_IGN);

  if (absl::Status s = store_->Open(); !s.ok()) return s;
  if (absl::Status s = ListenTcp(); !s.ok()) return s;
  if (absl::Status s = ListenUnix(); !s.ok()) return s;
  if (absl::Status s = StartAdminAndMetrics(); !s.ok()) return s;
  if (absl::Status s = WritePortFile(); !s.ok()) return s;
  spdlog::info("trestled listening on {} (port {}){}{}; admin port {}, metrics port {}; "
               "store {}, simulators {}, time {}",
               config_.listen, port_, config_.unix_socket.empty() ? "" : " and ",
               config_.unix_socket, admin_port_, metrics_port_, store_->name(),
               config_.sim_assignment, config_.time_mode);
  return absl::OkStatus();
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
  if (f == nullptr ||
      std::fprintf(f, "%u\n%u\n%u\n", port_, admin_port_, metrics_port_) < 0 ||
      std::fclose(f) != 0 || std::rename(tmp.c_str(), config_.port_file.c_str()) != 0) {
    return absl::UnavailableError(absl::StrCat("port_file: cannot write ", config_.port_file));
  }
  return absl::OkStatus();
}

void Daemon::Impl::FillStatus(admin::StatusReply* reply) {
  reply->set_version(TRESTLE_VERSION);
  reply->set_uptime_ms(uv_now(&loop_) - start_ms_);
  reply->set_store(std::string(store_->name()));
  reply->set_time_mode(config_.time_mode);
  reply->set_sim_assignment(config_.sim_assignment);
  relay_.totals().CopyTo(reply->mutable_totals());
  reply->set_sessions(sessions_.session_count());
  reply->set_connections(connections_.size());
  reply->set_draining(relay_.draining());
  reply->set_pid(static_cast<std::uint32_t>(getpid()));
  reply->set_listen(config_.listen);
}

void Daemon::Impl::FillStats(admin::StatsReply* reply) {
  relay_.FillStageLatencies(reply);
  reply->set_accepted_per_s(accepted_per_s_);
  reply->set_delivered_per_s(delivered_per_s_);
}

void Daemon::Impl::SampleRates() {
  const MessageCounters& t = relay_.totals();
  accepted_per_s_ = static_cast<double>(t.accepted - last_accepted_);
  delivered_per_s_ = static_cast<double>(t.delivered - last_delivered_);
  last_accepted_ = t.accepted;
  last_delivered_ = t.delivered;
}

void Daemon::Impl::StartDrain(std::uint32_t timeout_ms,
                              std::function<void(const admin::DrainReply&)> done) {
  if (!relay_.draining()) spdlog::info("draining: no new app sessions or sends");
  relay_.set_draining(true);
  drains_.push_back({uv_now(&loop_) + timeout_ms, std::move(done)});
  FinishDrains();
}

// Answers every drain request once nothing is in flight, and each one
// whose deadline passed either way.
void Daemon::Impl::FinishDrains() {
  const bool drained = relay_.totals().in_flight == 0;
  const std::uint64_t now = uv_now(&loop_);
  std::vector<DrainWaiter> keep;
  for (DrainWaiter& w : drains_) {
    if (!drained && now < w.deadline_ms) {
      keep.push_back(std::move(w));
      continue;
    }
    admin::DrainReply reply;
    reply.set_drained(drained);
    relay_.totals().CopyTo(reply.mutable_totals());
    w.done(reply);
  }
  drains_.swap(keep);
  // Wake up at the earliest deadline still pending.
  if (drains_.empty()) {
    uv_timer_stop(&drain_timer_);
    return;
  }
  std::uint64_t earliest = drains_.front().deadline_ms;
  for (const DrainWaiter& w : drains_) earliest = std::min(earliest, w.deadline_ms);
  uv_timer_start(&drain_timer_, [](uv_timer_t* t) { static_cast<Impl*>(t->data)->FinishDrains(); },
                 earliest - now, 0);
}

int Daemon::Impl::Run() {
  ran_ = true;
  uv_run(&loop_, UV_RUN_DEFAULT);
  // Off the loop now: admin handlers waiting for it get "unavailable".
  if (admin_ != nullptr) admin_->Stop();
  if (metrics_ != nullptr) metrics_->Stop();
  const MessageCounters& t = relay_.totals();
  spdlog::info("trestled stopped: accepted {} delivered {} dropped {} expired {} in flight {}",
               t.accepted, t.delivered, t.dropped, t.expired, t.in_flight);
  return 0;
}

void Daemon::Impl::CloseHandles() {
  auto close = [](auto* handle) { uv_close(reinterpret_cast<uv_handle_t*>(handle), nullptr); };
  if (tcp_open_) close(&tcp_server_);
  if (pipe_open_) close(&pipe_server_);
  tcp_open_ = pipe_open_ = false;
  if (handles_open_) {
    close(&pump_);
    close(&housekeeping_);
    close(&sigint_);
    close(&sigterm_);
    close(&rates_);
    close(&drain_timer_);
    handles_open_ = false;
  }
  tasks_.Close();
  flush_queue_.Close();
}

void Daemon::Impl::Shutdown() {
  if (shutting_down_) return;
  shutting_down_ = true;
  if (pipe_open_) unlink(config_.unix_socket.c_str());
  sessions_.EndAll();
  store_->Close();
  std::vector<Connection*> rest(connections_.begin(), connections_.end());
  for (Connection* c : rest) c->Close();
  flush_queue_.FlushAll();
  CloseHandles();
}

void Daemon::Impl::OnTcpConnection(uv_stream_t* server, int status) {
  static_cast<Impl*>(server->data)->Accept(server, wire::FramedStream::Kind::kTcp, status);
}

void Daemon::Impl::OnPipeConnection(uv_stream_t* server, int status) {
  static_cast<Impl*>(server->data)->Accept(server, wire::FramedStream::Kind::kPipe, status);
}

void Daemon::Impl::Accept(uv_stream_t* server, wire::FramedStream::Kind kind, int status) {
  if (status < 0) {
    spdlog::warn("accept failed: {}", uv_strerror(status));
    return;
  }
  auto* c = new Connection(*this, &loop_, kind, &flush_queue_, config_.max_frame_bytes);
  connections_.insert(c);
  int rc = uv_accept(server, c->stream().handle());
  if (rc == 0) rc = c->stream().StartReading();
  if (rc != 0) {
    // Typically EMFILE: the open-file limit is too low for this many clients.
    spdlog::warn("cannot accept a connection: {}", uv_strerror(rc));
    c->Close();
  }
}

void Daemon::Impl::OnFrame(Connection& c, wire::Frame& frame) {
  using F = wire::Frame;
  Session* s = c.session;
  switch (c.channel) {
    case wire::CHANNEL_UNSPECIFIED:
      if (frame.body_case() == F::kHello) {
        sessions_.OnHello(c, frame.hello());
      } else if (frame.body_case() == F::kAttach) {
        sessions_.OnAttach(c, frame.attach());
      } else {
        c.SendError(wire::BAD_REQUEST,
                    "the first frame on a connection must be Hello (ctrl) or Attach (send, "
                    "recv), not " + FrameName(frame),
                    0, true);
      }
      return;
    case wire::CHANNEL_CTRL:
      if (c.shared && s != nullptr && (RouteSend(*s, frame) || RouteRecv(*s, frame))) return;
      RouteCtrl(c, frame);
      return;
    case wire::CHANNEL_SEND:
      if (s == nullptr) return;  // session already ending
      if (!RouteSend(*s, frame)) Refuse(c, frame);
      return;
    case wire::CHANNEL_RECV:
      if (s == nullptr) return;
      if (!RouteRecv(*s, frame)) Refuse(c, frame);
      return;
    default:
      return;
  }
}

bool Daemon::Impl::RouteSend(Session& s, wire::Frame& frame) {
  if (frame.body_case() == wire::Frame::kSend && s.is_app()) {
    relay_.OnSend(s, *frame.mutable_send());
  } else if (frame.body_case() == wire::Frame::kOutcomes && !s.is_app()) {
    relay_.OnOutcomes(s, frame.outcomes());
  } else {
    return false;
  }
  return true;
}

bool Daemon::Impl::RouteRecv(Session& s, const wire::Frame& frame) {
  if (frame.body_case() == wire::Frame::kReceive && s.is_app()) {
    relay_.OnReceive(s, frame.receive());
  } else if (frame.body_case() == wire::Frame::kFetch && !s.is_app()) {
    relay_.OnFetch(s, frame.fetch());
  } else {
    return false;
  }
  return true;
}

void Daemon::Impl::RouteCtrl(Connection& c, wire::Frame& frame) {
  Session* s = c.session;
  if (s == nullptr) return;
  wire::Frame reply;
  switch (frame.body_case()) {
    case wire::Frame::kPing:
      reply.mutable_pong()->set_nonce(frame.ping().nonce());
      reply.mutable_pong()->set_daemon_time_ns(uv_hrtime());
      c.Write(reply);
      return;
    case wire::Frame::kStatsRequest:
      relay_.FillStats(reply.mutable_stats_reply());
      c.Write(reply);
      return;
    case wire::Frame::kBye:
      sessions_.OnBye(*s);
      return;
    default:
      Refuse(c, frame);
  }
}

// An operation this role or channel may not do: say so, and keep serving.
void Daemon::Impl::Refuse(Connection& c, const wire::Frame& frame) {
  using F = wire::Frame;
  const std::string name = FrameName(frame);
  const char* role = c.session != nullptr && c.session->is_app() ? "APP" : "SIM";
  switch (frame.body_case()) {
    case F::BODY_NOT_SET:
      c.SendError(wire::BAD_REQUEST, "empty frame: no body set");
      return;
    case F::kWelcome: case F::kPong: case F::kStatsReply: case F::kAttached:
    case F::kTransits: case F::kDeliveries: case F::kError:
      c.SendError(wire::BAD_REQUEST, name + " is sent by the daemon, not by clients");
      return;
    case F::kHello: case F::kAttach:
      c.SendError(wire::BAD_REQUEST, name + " is only valid as the first frame of a connection");
      return;
    default:
      break;
  }
  const bool app_op = frame.body_case() == F::kSend || frame.body_case() == F::kReceive;
  const bool sim_op = frame.body_case() == F::kOutcomes || frame.body_case() == F::kFetch;
  if ((app_op && std::string_view(role) == "SIM") || (sim_op && std::string_view(role) == "APP")) {
    c.SendError(wire::PERMISSION_DENIED, absl::StrCat("role ", role, " may not send ", name, " (",
                                                      app_op ? "an APP" : "a SIM", " operation)"));
    return;
  }
  const char* channel = c.channel == wire::CHANNEL_CTRL   ? "ctrl"
                        : c.channel == wire::CHANNEL_SEND ? "send"
                                                          : "recv";
  c.SendError(wire::PERMISSION_DENIED, absl::StrCat(name, " is not allowed on the ", channel, " channel"));
}

Daemon::Daemon(DaemonConfig config) : impl_(std::make_unique<Impl>(std::move(config))) {}
Daemon::~Daemon() = default;
absl::Status Daemon::Start() { return impl_->Start(); }
int Daemon::Run() { return impl_->Run(); }
void Daemon::Shutdown() { impl_->Shutdown(); }
std::uint16_t Daemon::port() const { return impl_->port(); }

}  // namespace trestle::daemon

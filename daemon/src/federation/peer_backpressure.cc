#include "federation/peer_backpressure.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

#include "session/session.h"

namespace trestle::daemon {

PeerBackpressure::PeerBackpressure(uv_loop_t* loop, const DaemonConfig& config,
                                   ClientRegistry& apps, const TransitDispatcher& transits,
                                   const BridgeDirectory& directory, Tell tell)
    : loop_(loop),
      config_(config),
      apps_(apps),
      transits_(transits),
      directory_(directory),
      tell_(std::move(tell)) {}

void PeerBackpressure::CheckQueue() {
  const std::size_t queued = transits_.queued(0);
  if (!full_ && queued >= config_.transit_queue_limit) {
    full_ = true;
    spdlog::debug("transit queue full ({} transits): the other daemons' senders pause", queued);
    TellAll(true);
  } else if (full_ && queued <= config_.transit_queue_limit / 2) {
    full_ = false;
    TellAll(false);
  } else if (full_ && uv_now(loop_) >= refresh_ms_) {
    TellAll(true);
  }
}

void PeerBackpressure::TellAll(bool full) {
  refresh_ms_ = uv_now(loop_) + kRefreshMs;
  const char kind_text[] = {kKind};
  const std::string_view fields[] = {"k", std::string_view(kind_text, 1), "d",
                                     daemon_text_.Write(0, config_.daemon_id), "full",
                                     full ? "1" : "0"};
  for (std::uint32_t d : directory_.alive_daemons()) {
    if (d != config_.daemon_id) tell_(d, fields);
  }
}

void PeerBackpressure::OnEntry(std::span<const std::string_view> fields) {
  std::uint64_t daemon = 0;
  bool has_daemon = false;
  bool full = false;
  for (std::size_t i = 0; i + 1 < fields.size(); i += 2) {
    if (fields[i] == "d") has_daemon = ParseDecimal(fields[i + 1], &daemon);
    if (fields[i] == "full") full = fields[i + 1] == "1";
  }
  if (!has_daemon || daemon > kMaxDaemonId) {
    spdlog::warn("a backpressure entry names no daemon; ignored");
    return;
  }
  const auto d = static_cast<std::uint32_t>(daemon);
  spdlog::debug("daemon {} says its transit queue is {}", d, full ? "full" : "clear");
  if (full) {
    full_until_ms_[d] = uv_now(loop_) + kExpireMs;
  } else {
    Clear(d);
  }
}

void PeerBackpressure::OnTransitHandedOn(const MessageRecord& r, std::uint32_t daemon) {
  auto it = full_until_ms_.find(daemon);
  if (it == full_until_ms_.end()) return;
  Session* sender = apps_.at(r.src).session;
  Channel* send = sender != nullptr ? sender->send() : nullptr;
  // One paused by someone else (this daemon's own queue) is theirs to resume.
  if (send == nullptr || send->reading_paused()) return;
  send->PauseReading();
  paused_.push_back(Paused{r.src, daemon});
  spdlog::debug("sender '{}' paused: daemon {} is full", apps_.at(r.src).id, daemon);
}

void PeerBackpressure::Clear(std::uint32_t daemon) {
  full_until_ms_.erase(daemon);
  auto waits = [daemon](const Paused& p) { return p.daemon == daemon; };
  for (const Paused& p : paused_) {
    if (!waits(p)) continue;
    Session* s = apps_.at(p.app).session;
    if (s != nullptr && s->send() != nullptr) s->send()->ResumeReading();
  }
  std::erase_if(paused_, waits);
}

void PeerBackpressure::Housekeeping(std::uint64_t now_ms) {
  std::vector<std::uint32_t> silent;
  for (const auto& [d, until] : full_until_ms_) {
    if (now_ms >= until) silent.push_back(d);
  }
  for (std::uint32_t d : silent) Clear(d);
  CheckQueue();
}

void PeerBackpressure::ForgetApp(std::uint32_t app) {
  std::erase_if(paused_, [app](const Paused& p) { return p.app == app; });
}

}  // namespace trestle::daemon

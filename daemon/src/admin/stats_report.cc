#include "admin/stats_report.h"

#include <algorithm>

#include "session/session.h"

namespace trestle::daemon {
namespace {
// An entry's encoded size besides its id, rounded up: counters, flags and
// framing (ClientStats; ClientInfo is larger).
constexpr std::uint64_t kClientStatsBytes = 96;
constexpr std::uint64_t kClientInfoBytes = 192;
// Room in a frame for the totals and the reply's own fields.
constexpr std::uint64_t kReplyOverheadBytes = 256;
}  // namespace

std::uint64_t StatsReport::ForEachClient(
    std::uint64_t position, std::uint64_t max_count,
    const std::function<bool(const ClientEntry&, wire::Role)>& add) const {
  const std::uint64_t app_slots = apps_.capacity();
  const std::uint64_t end = app_slots + sims_.capacity();
  std::uint64_t added = 0;
  for (; position < end && added < max_count; ++position) {
    const bool app = position < app_slots;
    const ClientEntry& e = app ? apps_.at(static_cast<std::uint32_t>(position))
                               : sims_.at(static_cast<std::uint32_t>(position - app_slots));
    if (!e.live) continue;
    if (!add(e, app ? wire::ROLE_APP : wire::ROLE_SIM)) break;
    ++added;
  }
  return position < end ? position : 0;
}

void StatsReport::FillStats(const wire::StatsRequest& request, std::uint32_t max_frame_bytes,
                            wire::StatsReply* reply) const {
  data_.ledger().totals().CopyTo(reply->mutable_total());
  if (data_.time() != nullptr) data_.time()->FillStats(reply->mutable_lockstep());
  const std::uint64_t budget =
      max_frame_bytes > kReplyOverheadBytes ? max_frame_bytes - kReplyOverheadBytes : 0;
  std::uint64_t bytes = 0;
  const std::uint64_t max_count = request.max_clients() == 0 ? ~0ull : request.max_clients();
  const std::uint64_t next = ForEachClient(
      request.first_client(), max_count, [&](const ClientEntry& e, wire::Role role) {
        const std::uint64_t cost = kClientStatsBytes + e.id.size();
        if (reply->clients_size() > 0 && bytes + cost > budget) return false;
        bytes += cost;
        wire::ClientStats* c = reply->add_clients();
        c->set_client_id(e.id);
        c->set_role(role);
        c->set_connected(e.session != nullptr && e.session->ready());
        e.counters.CopyTo(c->mutable_counters());
        if (role == wire::ROLE_APP) {
          c->set_queued(data_.deliveries().queued(e.index));
          c->set_held(data_.deliveries().unacked(e.index));
        } else if (e.session != nullptr) {
          c->set_queued(data_.transits().queued(data_.transits().queue_of(e.index)));
          c->set_held(data_.transits().held_by(e.index));
        }
        return true;
      });
  reply->set_next_client(next);
}

void StatsReport::FillClients(const admin::ListClientsRequest& request,
                              admin::ListClientsReply* reply) const {
  const std::uint64_t limit =
      request.limit() == 0 ? kAdminPageClients : std::min(request.limit(), kAdminPageClients);
  std::uint64_t bytes = 0;
  const std::uint64_t next = ForEachClient(
      request.offset(), limit, [&](const ClientEntry& e, wire::Role role) {
        const std::uint64_t cost = kClientInfoBytes + e.id.size();
        if (reply->clients_size() > 0 && bytes + cost > kAdminPageBytes) return false;
        bytes += cost;
        admin::ClientInfo* c = reply->add_clients();
        c->set_client_id(e.id);
        c->set_role(role);
        e.counters.CopyTo(c->mutable_counters());
        c->set_sent(e.counters.accepted);
        c->set_received(e.counters.received);
        if (role == wire::ROLE_APP) {
          c->set_queued(data_.deliveries().queued(e.index));
          c->set_held(data_.deliveries().unacked(e.index));
        }
        const Session* s = e.session;
        if (s == nullptr) return true;
        c->set_mode(s->mode());
        c->set_connected(s->ready());
        c->set_lingering(s->state() == Session::State::kLingering);
        c->set_ctrl(s->ctrl() != nullptr);
        c->set_send(s->send() != nullptr);
        c->set_recv(s->recv() != nullptr);
        if (s->recv() != nullptr) c->set_output_bytes(s->recv()->pending_bytes());
        if (role == wire::ROLE_SIM) {
          c->set_queued(data_.transits().queued(data_.transits().queue_of(e.index)));
          c->set_held(data_.transits().held_by(e.index));
        }
        return true;
      });
  reply->set_next_offset(next);
  reply->set_total(apps_.size() + sims_.size());
}

void StatsReport::FillStageLatencies(admin::StatsReply* reply) const {
  data_.ledger().latencies().CopyTo(reply);
  data_.ledger().totals().CopyTo(reply->mutable_totals());
}

}  // namespace trestle::daemon

#include "stats_report.h"

#include "session.h"

namespace trestle::daemon {

void StatsReport::FillStats(wire::StatsReply* reply) const {
  data_.ledger().totals().CopyTo(reply->mutable_total());
  for (const ClientEntry& e : apps_) {
    wire::ClientStats* c = reply->add_clients();
    c->set_client_id(e.id);
    c->set_role(wire::ROLE_APP);
    c->set_connected(e.session != nullptr && e.session->ready());
    e.counters.CopyTo(c->mutable_counters());
    c->set_queued(data_.deliveries().queued(e.index));
  }
  for (const ClientEntry& e : sims_) {
    wire::ClientStats* c = reply->add_clients();
    c->set_client_id(e.id);
    c->set_role(wire::ROLE_SIM);
    c->set_connected(e.session != nullptr && e.session->ready());
    if (e.session != nullptr) {
      c->set_queued(data_.transits().queued(data_.transits().queue_of(e.index)));
      c->set_held(data_.transits().held_by(e.index));
    }
  }
}

void StatsReport::FillClients(admin::ListClientsReply* reply) const {
  auto fill = [&](const ClientEntry& e, wire::Role role) {
    admin::ClientInfo* c = reply->add_clients();
    c->set_client_id(e.id);
    c->set_role(role);
    e.counters.CopyTo(c->mutable_counters());
    c->set_sent(e.counters.accepted);
    c->set_received(e.counters.received);
    if (role == wire::ROLE_APP) c->set_queued(data_.deliveries().queued(e.index));
    const Session* s = e.session;
    if (s == nullptr) return;
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
  };
  for (const ClientEntry& e : apps_) fill(e, wire::ROLE_APP);
  for (const ClientEntry& e : sims_) fill(e, wire::ROLE_SIM);
}

void StatsReport::FillStageLatencies(admin::StatsReply* reply) const {
  data_.ledger().latencies().CopyTo(reply);
  data_.ledger().totals().CopyTo(reply->mutable_totals());
}

}  // namespace trestle::daemon

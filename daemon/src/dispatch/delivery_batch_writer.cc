#include "dispatch/delivery_batch_writer.h"

#include <utility>

#include "session/session.h"
#include "trestle/wire/monotonic_clock.h"

namespace trestle::daemon {
namespace {
// Payload bytes the reused frame may keep allocated between batches.
constexpr std::uint64_t kKeepFrameBytes = 256 * 1024;
}  // namespace

void DeliveryBatchWriter::Write(Session& s, std::span<const std::uint64_t> ids,
                                std::span<std::string> payloads, std::uint64_t* last_seq,
                                bool keep_payloads) {
  // Clearing the batch, not the frame, keeps its Deliveries and their
  // strings for the next batch.
  wire::DeliverBatch* batch = frame_.mutable_deliveries();
  batch->Clear();
  const std::uint64_t now = wire::MonotonicNanos();
  std::uint64_t batch_bytes = 0;
  std::size_t p = 0;
  const bool by_key = s.payload_by_key();
  for (std::uint64_t id : ids) {
    MessageRecord* r = ledger_.Find(id);
    if (r->delivery_seq == 0) r->delivery_seq = ++*last_seq;
    wire::Delivery* d = batch->add_deliveries();
    d->set_id(id);
    d->set_delivery_seq(r->delivery_seq);
    d->set_src(apps_.at(r->src).id);
    d->set_dst(apps_.at(r->dst).id);
    d->set_t_send(r->t_send);
    d->set_t_deliver(r->t_deliver);
    d->set_tclass(r->tclass);
    wire::Stamps* st = d->mutable_stamps();
    st->set_app_sent(r->app_sent);
    st->set_daemon_accepted(r->accepted);
    st->set_sim_handed(r->handed);
    st->set_sim_posted(r->posted);
    st->set_daemon_delivered(now);
    if (r->state == MessageRecord::State::kAwaitingDelivery) {
      d->set_status(wire::DELIVERED);
      if (r->by_key && by_key) {
        d->set_by_key(true);  // the app takes the payload from the store
        d->set_size(r->size);
      } else {
        batch_bytes += payloads[p].size();
        d->set_payload(std::move(payloads[p++]));
      }
      ledger_.Written(*r, now);
    } else {
      d->set_status(r->lost_in_store ? wire::LOST_IN_STORE : wire::DROPPED);
    }
  }
  s.recv()->Write(frame_);
  if (keep_payloads) {
    for (wire::Delivery& d : *batch->mutable_deliveries()) {
      ledger_.Find(d.id())->payload = std::move(*d.mutable_payload());
    }
  }
  if (batch_bytes > kKeepFrameBytes) frame_ = wire::Frame();
}

}  // namespace trestle::daemon

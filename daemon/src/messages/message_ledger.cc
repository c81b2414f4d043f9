#include "messages/message_ledger.h"

namespace trestle::daemon {

MessageRecord* MessageLedger::Open(std::uint64_t id, std::uint32_t src, std::uint32_t dst) {
  MessageRecord* r = messages_.Insert(id);
  if (r == nullptr) return nullptr;
  r->src = src;
  r->dst = dst;
  apps_.Retain(src);
  apps_.Retain(dst);
  return r;
}

void MessageLedger::Erase(std::uint64_t id) {
  MessageRecord* r = messages_.Find(id);
  if (r == nullptr) return;
  const std::uint32_t src = r->src;
  const std::uint32_t dst = r->dst;
  messages_.Erase(id);
  apps_.Release(src);
  apps_.Release(dst);
}

void MessageLedger::Begin(const MessageRecord& r, std::uint64_t MessageCounters::*which) {
  MessageCounters& c = apps_.at(r.src).counters;
  c.*which += 1;
  c.in_flight++;
  totals_.*which += 1;
  totals_.in_flight++;
}

void MessageLedger::Accept(MessageRecord& r) { Begin(r, &MessageCounters::accepted); }
void MessageLedger::FromPeer(MessageRecord& r) { Begin(r, &MessageCounters::from_peers); }
void MessageLedger::Recovered(MessageRecord& r) { Begin(r, &MessageCounters::recovered); }

void MessageLedger::Reject(std::uint32_t src) {
  apps_.at(src).counters.rejected++;
  totals_.rejected++;
}

void MessageLedger::Finish(const MessageRecord& r, std::uint64_t MessageCounters::*which,
                           std::string_view outcome) {
  if (trace_ != nullptr) trace_->Record(r, apps_.at(r.src).id, apps_.at(r.dst).id, outcome);
  MessageCounters& c = apps_.at(r.src).counters;
  c.*which += 1;
  c.in_flight--;
  totals_.*which += 1;
  totals_.in_flight--;
  if (durable_ != nullptr && r.durable()) durable_->OnDurableDone(r);
}

void MessageLedger::Delivered(MessageRecord& r) {
  Finish(r, &MessageCounters::delivered, "delivered");
  apps_.at(r.dst).counters.received++;
  totals_.received++;
}

void MessageLedger::Dropped(MessageRecord& r) { Finish(r, &MessageCounters::dropped, "dropped"); }
void MessageLedger::Expired(MessageRecord& r) { Finish(r, &MessageCounters::expired, "expired"); }
void MessageLedger::LostInStore(MessageRecord& r) {
  Finish(r, &MessageCounters::lost_in_store, "lost_in_store");
}

void MessageLedger::Forwarded(MessageRecord& r) {
  Finish(r, &MessageCounters::forwarded, "forwarded");
}

}  // namespace trestle::daemon

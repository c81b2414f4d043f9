#include "delivery_ledger.h"

namespace trestle::bench {

void DeliveryLedger::Clear() {
  entries_.clear();
  delivered_ = 0;
  sent_to_stalled_ = 0;
  delivered_to_stalled_ = 0;
  duplicated_ = 0;
  unknown_ = 0;
}

void DeliveryLedger::Add(std::uint64_t id, std::uint32_t sender, std::uint32_t receiver,
                         bool measured, bool to_stalled) {
  entries_.push_back(Entry{id, sender, receiver, 0, measured, to_stalled});
  if (to_stalled) ++sent_to_stalled_;
}

const DeliveryLedger::Entry* DeliveryLedger::MarkArrived(std::uint64_t seq, std::uint64_t id,
                                                         std::uint32_t receiver) {
  if (seq >= entries_.size() || entries_[seq].id != id || entries_[seq].receiver != receiver) {
    ++unknown_;
    return nullptr;
  }
  Entry& e = entries_[seq];
  if (e.arrivals != UINT16_MAX) ++e.arrivals;
  if (e.arrivals > 1) {
    ++duplicated_;
    return nullptr;
  }
  ++delivered_;
  if (e.to_stalled) ++delivered_to_stalled_;
  return &e;
}

}  // namespace trestle::bench

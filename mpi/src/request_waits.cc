#include "request_waits.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "point_to_point.h"

namespace trestle::mpi {
namespace {

MPI_Status* StatusAt(MPI_Status* statuses, int i) {
  return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

// The status of a completed send, or of an inactive request.
void SetEmpty(MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE) return;
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = MPI_SUCCESS;
  PMPI_Status_set_elements(status, MPI_BYTE, 0);
  PMPI_Status_set_cancelled(status, 0);
}

}  // namespace

MPI_Request RequestWaits::Operation(MPI_Request request) {
  if (request == MPI_REQUEST_NULL) return request;
  const PersistentRequests::Table::Entry* p = persistent_.Find(request);
  if (p == nullptr) return request;
  return p->posted.value_or(MPI_REQUEST_NULL);
}

RequestWaits::State RequestWaits::Check(MPI_Request request) {
  request = Operation(request);
  if (request == MPI_REQUEST_NULL) return State::kInactive;
  TrackedRequest* t = layer_.requests().Find(request);
  if (t == nullptr) {
    int done = 0;
    PMPI_Request_get_status(request, &done, MPI_STATUS_IGNORE);
    return done ? State::kComplete : State::kPending;
  }
  if (t->send != nullptr || t->cancelled) return State::kComplete;
  return layer_.p2p().Drive(*t->receive) ? State::kComplete : State::kPending;
}

int RequestWaits::Complete(MPI_Request* request, MPI_Status* status) {
  if (*request != MPI_REQUEST_NULL && persistent_.Find(*request) != nullptr) {
    MPI_Request posted = Operation(*request);
    persistent_.Finish(*request);
    return Complete(&posted, status);  // the handle stays, inactive
  }
  if (*request == MPI_REQUEST_NULL) {
    SetEmpty(status);
    return MPI_SUCCESS;
  }
  if (layer_.requests().Find(*request) == nullptr) return PMPI_Wait(request, status);
  TrackedRequest t = layer_.requests().Take(*request);
  if (t.send != nullptr) {
    int done = 0;
    MPI_Request real = *request;
    PMPI_Test(&real, &done, MPI_STATUS_IGNORE);
    if (!done) layer_.detached().Add(real, std::move(t.send));
    *request = MPI_REQUEST_NULL;
    SetEmpty(status);
    return MPI_SUCCESS;
  }
  // The data was sent before its mirror; a cancelled one's status says so.
  return PMPI_Wait(request, status);
}

void RequestWaits::SweepFreed() {
  for (auto it = freed_.begin(); it != freed_.end();) {
    if (!layer_.p2p().Drive(**it)) {
      ++it;
      continue;
    }
    PMPI_Wait(&(*it)->real, MPI_STATUS_IGNORE);  // its data was sent before its mirror
    it = freed_.erase(it);
  }
}

int RequestWaits::Wait(MPI_Request* request, MPI_Status* status) {
  SweepFreed();
  const MPI_Request op = Operation(*request);
  TrackedRequest* t = op == MPI_REQUEST_NULL ? nullptr : layer_.requests().Find(op);
  if (t != nullptr && t->receive != nullptr && !t->cancelled) {
    layer_.p2p().WaitReady(*t->receive);
  }
  return Complete(request, status);
}

int RequestWaits::Waitall(int count, MPI_Request* requests, MPI_Status* statuses) {
  SweepFreed();
  layer_.Block([&] {
    bool all = true;
    for (int i = 0; i < count; ++i) {
      if (Check(requests[i]) == State::kPending) all = false;
    }
    return all;
  });
  int rc = MPI_SUCCESS;
  for (int i = 0; i < count; ++i) {
    MPI_Status* s = StatusAt(statuses, i);
    const int r = Complete(&requests[i], s);
    if (r != MPI_SUCCESS) rc = MPI_ERR_IN_STATUS;
    if (s != MPI_STATUS_IGNORE) s->MPI_ERROR = r;
  }
  return rc;
}

int RequestWaits::FirstComplete(int count, MPI_Request* requests, int* active) {
  int first = -1;
  *active = 0;
  for (int i = 0; i < count; ++i) {
    const State s = Check(requests[i]);
    if (s == State::kInactive) continue;
    ++*active;
    if (s == State::kComplete && first < 0) first = i;
  }
  return first;
}

int RequestWaits::Waitany(int count, MPI_Request* requests, int* index, MPI_Status* status) {
  SweepFreed();
  int active = 0;
  int first = FirstComplete(count, requests, &active);
  if (active == 0) {
    *index = MPI_UNDEFINED;
    SetEmpty(status);
    return MPI_SUCCESS;
  }
  layer_.Block([&] { return (first = FirstComplete(count, requests, &active)) >= 0; });
  // Another may complete at the same virtual time, its mirror not taken yet.
  if (active > 1) {
    layer_.SyncToNow();
    first = FirstComplete(count, requests, &active);
  }
  *index = first;
  return Complete(&requests[first], status);
}

int RequestWaits::Waitsome(int count, MPI_Request* requests, int* outcount, int* indices,
                           MPI_Status* statuses) {
  SweepFreed();
  int active = 0;
  int first = FirstComplete(count, requests, &active);
  if (active == 0) {
    *outcount = MPI_UNDEFINED;
    return MPI_SUCCESS;
  }
  layer_.Block([&] { return (first = FirstComplete(count, requests, &active)) >= 0; });
  if (active > 1) layer_.SyncToNow();
  return Testsome(count, requests, outcount, indices, statuses);
}

int RequestWaits::Test(MPI_Request* request, int* flag, MPI_Status* status) {
  SweepFreed();
  State s = Check(*request);
  if (s == State::kPending) {
    layer_.SyncToNow();
    s = Check(*request);
  }
  if (s == State::kPending) {
    layer_.ChargePoll();
    *flag = 0;
    return MPI_SUCCESS;
  }
  *flag = 1;
  return Complete(request, status);
}

int RequestWaits::Testall(int count, MPI_Request* requests, int* flag, MPI_Status* statuses) {
  SweepFreed();
  auto all = [&] {
    for (int i = 0; i < count; ++i) {
      if (Check(requests[i]) == State::kPending) return false;
    }
    return true;
  };
  if (!all()) {
    layer_.SyncToNow();
    if (!all()) {
      layer_.ChargePoll();
      *flag = 0;
      return MPI_SUCCESS;
    }
  }
  *flag = 1;
  return Waitall(count, requests, statuses);
}

int RequestWaits::Testany(int count, MPI_Request* requests, int* index, int* flag,
                          MPI_Status* status) {
  SweepFreed();
  int active = 0;
  int first = FirstComplete(count, requests, &active);
  if (active == 0) {
    *flag = 1;
    *index = MPI_UNDEFINED;
    SetEmpty(status);
    return MPI_SUCCESS;
  }
  if (first < 0 || active > 1) {
    layer_.SyncToNow();
    first = FirstComplete(count, requests, &active);
  }
  if (first < 0) {
    layer_.ChargePoll();
    *flag = 0;
    *index = MPI_UNDEFINED;
    return MPI_SUCCESS;
  }
  *flag = 1;
  *index = first;
  return Complete(&requests[first], status);
}

int RequestWaits::Testsome(int count, MPI_Request* requests, int* outcount, int* indices,
                           MPI_Status* statuses) {
  SweepFreed();
  std::vector<int> complete;
  int active = 0;
  auto gather = [&] {
    complete.clear();
    active = 0;
    for (int i = 0; i < count; ++i) {
      const State s = Check(requests[i]);
      if (s != State::kInactive) ++active;
      if (s == State::kComplete) complete.push_back(i);
    }
  };
  gather();
  if (active == 0) {
    *outcount = MPI_UNDEFINED;
    return MPI_SUCCESS;
  }
  if (complete.empty()) {
    layer_.SyncToNow();
    gather();
  }
  if (complete.empty()) layer_.ChargePoll();
  *outcount = static_cast<int>(complete.size());
  int rc = MPI_SUCCESS;
  for (std::size_t k = 0; k < complete.size(); ++k) {
    indices[k] = complete[k];
    MPI_Status* s = StatusAt(statuses, static_cast<int>(k));
    const int r = Complete(&requests[complete[k]], s);
    if (r != MPI_SUCCESS) rc = MPI_ERR_IN_STATUS;
    if (s != MPI_STATUS_IGNORE) s->MPI_ERROR = r;
  }
  return rc;
}

int RequestWaits::GetStatus(MPI_Request request, int* flag, MPI_Status* status) {
  SweepFreed();
  State s = Check(request);
  if (s == State::kPending) {
    layer_.SyncToNow();
    s = Check(request);
  }
  if (s == State::kPending) {
    layer_.ChargePoll();
    *flag = 0;
    return MPI_SUCCESS;
  }
  *flag = 1;
  const MPI_Request op = Operation(request);
  TrackedRequest* t = op == MPI_REQUEST_NULL ? nullptr : layer_.requests().Find(op);
  if (op == MPI_REQUEST_NULL || (t != nullptr && t->send != nullptr)) {
    SetEmpty(status);
    return MPI_SUCCESS;
  }
  // Complete in virtual time: its real data was sent before its mirror.
  int done = 0;
  while (!done) {
    const int rc = PMPI_Request_get_status(op, &done, status);
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

int RequestWaits::RequestFree(MPI_Request* request) {
  SweepFreed();
  if (*request != MPI_REQUEST_NULL && persistent_.Find(*request) != nullptr) {
    std::optional<MPI_Request> posted = persistent_.Free(request);
    // An active one is marked for deallocation: its operation goes on.
    return posted.has_value() ? RequestFree(&*posted) : MPI_SUCCESS;
  }
  TrackedRequest* t = *request == MPI_REQUEST_NULL ? nullptr : layer_.requests().Find(*request);
  if (t == nullptr) return PMPI_Request_free(request);
  if (t->receive != nullptr && !t->cancelled) {
    // It goes on: followed until its mirror is here, then finished.
    freed_.push_back(std::move(layer_.requests().Take(*request).receive));
    *request = MPI_REQUEST_NULL;
    SweepFreed();
    return MPI_SUCCESS;
  }
  return Complete(request, MPI_STATUS_IGNORE);  // a send goes on, detached
}

int RequestWaits::Cancel(MPI_Request* request) {
  MPI_Request op = Operation(*request);
  if (op == MPI_REQUEST_NULL) {
    // An inactive persistent request has nothing to cancel.
    return *request == MPI_REQUEST_NULL ? PMPI_Cancel(request) : MPI_SUCCESS;
  }
  TrackedRequest* t = layer_.requests().Find(op);
  if (t == nullptr) return PMPI_Cancel(&op);
  if (t->send != nullptr) {
    Fatal(absl::StrCat(layer_.current_call(),
                       " of a send is not modelled by libtrestle-mpi: every send completes at "
                       "once in virtual time (docs/mpi.md)"));
  }
  if (!t->cancelled) t->cancelled = layer_.p2p().Cancel(*t->receive);
  return MPI_SUCCESS;
}

}  // namespace trestle::mpi

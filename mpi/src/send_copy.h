// SendCopy: a copy of the data an MPI send reads, laid out as the program's
// buffer (gaps of a non-contiguous datatype included), so that the real
// send can go on after the call returned: the layer makes every send
// complete at once in the program's view (as a buffered send), whatever the
// real MPI's protocol for its size. The real send reads address(), with the
// program's count and datatype.
//
// Ownership: shared between the real requests that read it (a bcast sends
// one copy to several children); freed when the last lets go.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>

namespace trestle::mpi {

class SendCopy {
 public:
  // Copies `count` elements of `type` at `buffer` (MPI_BOTTOM allowed).
  static std::shared_ptr<SendCopy> Of(const void* buffer, int count, MPI_Datatype type);

  const void* address() const { return address_; }
  // The copy itself, for the layer's own reductions (scan) before it is
  // sent; null for no elements.
  void* writable() { return data_ == nullptr ? nullptr : const_cast<void*>(address_); }
  std::size_t bytes() const { return size_; }

 private:
  SendCopy() = default;

  std::unique_ptr<char[]> data_;
  std::size_t size_ = 0;
  const void* address_ = nullptr;
};

}  // namespace trestle::mpi

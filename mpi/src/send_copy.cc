#include "send_copy.h"

#include <algorithm>
#include <cstring>

namespace trestle::mpi {

std::shared_ptr<SendCopy> SendCopy::Of(const void* buffer, int count, MPI_Datatype type) {
  std::shared_ptr<SendCopy> copy(new SendCopy());
  copy->address_ = buffer;
  if (count <= 0) return copy;
  MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  PMPI_Type_get_extent(type, &lb, &extent);
  PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
  // The bytes the elements touch: from the first element's true lower bound
  // to the last one's true upper bound (or the reverse, for a negative extent).
  const MPI_Aint last = static_cast<MPI_Aint>(count - 1) * extent;
  const MPI_Aint low = std::min(true_lb, true_lb + last);
  const MPI_Aint high = std::max(true_lb + true_extent, true_lb + last + true_extent);
  if (high <= low) return copy;
  copy->size_ = static_cast<std::size_t>(high - low);
  copy->data_ = std::make_unique<char[]>(copy->size_);
  const char* from = static_cast<const char*>(buffer) + low;
  std::memcpy(copy->data_.get(), from, copy->size_);
  copy->address_ = copy->data_.get() - low;
  return copy;
}

}  // namespace trestle::mpi

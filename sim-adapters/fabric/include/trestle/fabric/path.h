// Path: the sequence of directed links a message crosses, source to
// destination. Routing writes paths; MessageTimeModel reads them; a future
// contention model will charge each link id on the path.
//
// A Path keeps its storage between uses: Clear() does not free, so a caller
// that reuses one Path for many queries allocates only while it grows.
#ifndef TRESTLE_FABRIC_PATH_H_
#define TRESTLE_FABRIC_PATH_H_

#include <cstddef>
#include <vector>

#include "trestle/fabric/link.h"

namespace trestle::fabric {

class Path {
 public:
  Path() = default;

  void Clear() { links_.clear(); }
  void Append(LinkId link) { links_.push_back(link); }
  // Appends every link of `other`, in order.
  void Extend(const Path& other) {
    links_.insert(links_.end(), other.links_.begin(), other.links_.end());
  }

  // Number of links crossed. A message to itself crosses none.
  std::size_t HopCount() const { return links_.size(); }
  bool Empty() const { return links_.empty(); }
  LinkId operator[](std::size_t i) const { return links_[i]; }
  const std::vector<LinkId>& Links() const { return links_; }

 private:
  std::vector<LinkId> links_;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_PATH_H_

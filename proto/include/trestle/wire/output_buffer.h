// OutputBuffer: encoded frames waiting for a socket. Frames are encoded
// straight into it (Extend hands out room at the end); it grows
// geometrically, copying only the bytes it holds and never zeroing the room
// it adds, so each byte of a frame is written once on its way to the kernel
// (std::string::resize zeroes the room first, which doubled the daemon's
// work per payload byte). Loop thread only; not copyable.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <utility>

namespace trestle::wire {

class OutputBuffer {
 public:
  char* data() { return data_.get(); }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }

  // Room for `n` more bytes at the end, counted in size() at once; the
  // caller writes them before the next call. Pointers into the buffer stay
  // valid until a call that grows it.
  char* Extend(std::size_t n) {
    if (size_ + n > capacity_) Grow(size_ + n);
    char* at = data_.get() + size_;
    size_ += n;
    return at;
  }
  void Append(const char* bytes, std::size_t n) { std::memcpy(Extend(n), bytes, n); }
  void Clear() { size_ = 0; }
  // Empties it and gives its memory back.
  void Release() {
    data_.reset();
    size_ = capacity_ = 0;
  }
  void swap(OutputBuffer& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
  }

 private:
  void Grow(std::size_t needed) {
    std::size_t capacity = capacity_ < 4096 ? 4096 : capacity_ * 2;
    while (capacity < needed) capacity *= 2;
    std::unique_ptr<char[]> grown = std::make_unique_for_overwrite<char[]>(capacity);
    if (size_ > 0) std::memcpy(grown.get(), data_.get(), size_);
    data_ = std::move(grown);
    capacity_ = capacity;
  }

  std::unique_ptr<char[]> data_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace trestle::wire

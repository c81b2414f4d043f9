// ByteReader: a fuzz input read front to back as small decisions. Past the
// end every read yields 0 (or an empty string), so any input is a complete
// program; committed seeds can be written by hand (make_seeds.py) because
// the layout is plain: one byte per decision, in order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace trestle::fuzz {

class ByteReader {
 public:
  ByteReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  bool empty() const { return pos_ >= size_; }
  std::uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  // A value in [0, n); n must be at least 1.
  std::uint32_t Below(std::uint32_t n) { return Byte() % n; }
  // Up to `n` bytes (fewer at the end of the input).
  std::string Bytes(std::size_t n) {
    const std::size_t take = n < size_ - pos_ ? n : (pos_ < size_ ? size_ - pos_ : 0);
    std::string out(reinterpret_cast<const char*>(data_ + pos_), take);
    pos_ += take;
    return out;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

}  // namespace trestle::fuzz

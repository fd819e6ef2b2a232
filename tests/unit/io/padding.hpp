#pragma once
// The member bytes of trivially copyable records without their padding
// (copies keep whatever the padding held): tests compare Body values byte
// for byte with this, e.g. a checkpoint round trip.
#include <cstring>
#include <new>
#include <vector>

namespace grains {

/// The bytes of T that are padding, not members: T is default-initialised
/// (not value-initialised, which would zero the padding too) in memory
/// filled with 0x00 and in memory filled with 0xFF; bytes that differ were
/// not written by any member initialiser. So every member of T needs an
/// initialiser (Body's all have one), or it would be taken for padding.
template <typename T>
std::vector<bool> paddingBytes() {
  alignas(T) unsigned char zeros[sizeof(T)], ones[sizeof(T)];
  std::memset(zeros, 0x00, sizeof(T));
  std::memset(ones, 0xFF, sizeof(T));
  T* a = new (zeros) T;
  T* b = new (ones) T;
  std::vector<bool> padding(sizeof(T));
  for (std::size_t i = 0; i < sizeof(T); ++i) padding[i] = zeros[i] != ones[i];
  a->~T();
  b->~T();
  return padding;
}

/// The bytes of `items` with every padding byte zeroed.
template <typename T>
std::vector<unsigned char> bytesWithoutPadding(const std::vector<T>& items) {
  static const std::vector<bool> padding = paddingBytes<T>();
  std::vector<unsigned char> bytes(items.size() * sizeof(T));
  if (!items.empty()) std::memcpy(bytes.data(), items.data(), bytes.size());
  for (std::size_t k = 0; k < items.size(); ++k)
    for (std::size_t i = 0; i < sizeof(T); ++i)
      if (padding[i]) bytes[k * sizeof(T) + i] = 0;
  return bytes;
}

}  // namespace grains

#include "rank_ids.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace trestle {
namespace {

constexpr const char* kPrefix = "rank-";
constexpr std::size_t kPrefixSize = 5;

}  // namespace

std::string RankClientId(int rank) { return absl::StrCat(kPrefix, rank); }

std::string RankClientIdList(int np) {
  std::string out;
  for (int k = 0; k < np; ++k) absl::StrAppend(&out, k == 0 ? "" : ",", kPrefix, k);
  return out;
}

std::optional<int> RankOfClientId(std::string_view id) {
  if (!id.starts_with(kPrefix)) return std::nullopt;
  const std::string_view digits = id.substr(kPrefixSize);
  int k = 0;
  if (digits.empty() || (digits.size() > 1 && digits[0] == '0') ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
      !absl::SimpleAtoi(absl::string_view(digits.data(), digits.size()), &k)) {
    return std::nullopt;
  }
  return k;
}

std::string RankNames(const std::vector<std::string>& ids) {
  std::vector<int> ranks;
  std::vector<std::string> others;
  for (const std::string& id : ids) {
    if (std::optional<int> k = RankOfClientId(id)) {
      ranks.push_back(*k);
    } else {
      others.push_back(absl::StrCat("'", id, "'"));
    }
  }
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (j - i >= 2) {
      parts.push_back(absl::StrCat(ranks[i], "-", ranks[j]));
    } else {
      for (std::size_t k = i; k <= j; ++k) parts.push_back(absl::StrCat(ranks[k]));
    }
    i = j + 1;
  }
  parts.insert(parts.end(), others.begin(), others.end());
  if (parts.empty()) return "no rank";
  const bool one = ranks.size() + others.size() == 1;
  std::string words = parts.size() == 1
                          ? parts[0]
                          : absl::StrCat(absl::StrJoin(parts.begin(), parts.end() - 1, ", "),
                                         " and ", parts.back());
  return absl::StrCat(one ? "rank " : "ranks ", words);
}

}  // namespace trestle

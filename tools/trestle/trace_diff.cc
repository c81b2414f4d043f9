#include "trace_diff.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "trestle/platform/read_file.h"

namespace trestle {
namespace {

using Key = std::pair<std::string, std::uint64_t>;  // (src, seq)
using Trace = std::map<Key, std::string>;

absl::StatusOr<Trace> Load(const std::string& path) {
  absl::StatusOr<std::string> text = platform::ReadFile(path, "trace");
  if (!text.ok()) return text.status();
  Trace trace;
  std::size_t number = 0;
  for (absl::string_view piece : absl::StrSplit(*text, '\n')) {
    const std::string line(piece);
    if (++number == 1 && line.rfind("src,", 0) == 0) continue;  // the header
    if (line.empty()) continue;
    std::vector<std::string> fields = absl::StrSplit(line, ',');
    std::uint64_t seq = 0;
    if (fields.size() != 9 || !absl::SimpleAtoi(fields[1], &seq)) {
      return absl::InvalidArgumentError(
          absl::StrCat("trace '", path, "' line ", number, ": expected 9 fields "
                       "src,seq,dst,size,tclass,t_send,t_deliver,outcome,delivery_seq: ", line));
    }
    Key key{fields[0], seq};
    if (!trace.emplace(key, line).second) {
      return absl::InvalidArgumentError(absl::StrCat("trace '", path, "' line ", number,
                                                     ": message ", fields[0], "#", seq,
                                                     " appears twice"));
    }
  }
  return trace;
}

}  // namespace

absl::StatusOr<TraceDiff> CompareTraces(const std::string& a, const std::string& b) {
  absl::StatusOr<Trace> ta = Load(a);
  if (!ta.ok()) return ta.status();
  absl::StatusOr<Trace> tb = Load(b);
  if (!tb.ok()) return tb.status();
  TraceDiff diff;
  diff.messages_a = ta->size();
  diff.messages_b = tb->size();
  auto note = [&](std::string text) {
    if (diff.differing++ == 0) diff.first = std::move(text);
  };
  auto ia = ta->begin();
  auto ib = tb->begin();
  while (ia != ta->end() || ib != tb->end()) {
    if (ib == tb->end() || (ia != ta->end() && ia->first < ib->first)) {
      note(absl::StrCat("only in ", a, ": ", ia->second));
      ++ia;
    } else if (ia == ta->end() || ib->first < ia->first) {
      note(absl::StrCat("only in ", b, ": ", ib->second));
      ++ib;
    } else {
      if (ia->second != ib->second) {
        note(absl::StrCat("message ", ia->first.first, "#", ia->first.second, " differs:\n  ", a,
                          ": ", ia->second, "\n  ", b, ": ", ib->second));
      }
      ++ia;
      ++ib;
    }
  }
  return diff;
}

void RegisterTraceCommands(CLI::App& app) {
  CLI::App* trace = app.add_subcommand("trace", "Work with message traces (trestled --trace)");
  trace->require_subcommand(1);
  CLI::App* diff = trace->add_subcommand(
      "diff", "Compare two traces message by message (by src and seq); exit 1 if they differ");
  auto files = std::make_shared<std::pair<std::string, std::string>>();
  diff->add_option("A", files->first, "First trace")->required()->check(CLI::ExistingFile);
  diff->add_option("B", files->second, "Second trace")->required()->check(CLI::ExistingFile);
  diff->callback([files] {
    absl::StatusOr<TraceDiff> d = CompareTraces(files->first, files->second);
    if (!d.ok()) {
      std::fprintf(stderr, "trestle trace diff: %s\n", std::string(d.status().message()).c_str());
      std::exit(2);
    }
    if (d->differing == 0) {
      std::printf("identical (%zu messages)\n", d->messages_a);
      return;
    }
    std::printf("%s\n%zu of %zu / %zu messages differ\n", d->first.c_str(), d->differing,
                d->messages_a, d->messages_b);
    std::exit(1);
  });
}

}  // namespace trestle

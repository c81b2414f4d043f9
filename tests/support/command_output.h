// RunCommand: runs a shell command and captures what it prints on stdout
// (add 2>&1 to the command for stderr too), with its exit code.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace trestle::testing {

struct CommandOutput {
  int exit_code = -1;  // -1: it did not exit normally (a signal), or could not start
  std::string text;
};

inline CommandOutput RunCommand(const std::string& command) {
  CommandOutput out;
  std::FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  std::array<char, 4096> buffer;
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.text.append(buffer.data(), n);
  const int status = pclose(pipe);
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

}  // namespace trestle::testing

// The command lines quoted in deployment files other than docker-compose.yml,
// so that CommandFlagChecker can check them against the real binaries:
//   - ExecStartCommands: every Exec*= line of a systemd unit (ExecStart,
//     ExecStartPre, ExecReload, ...), continuation lines joined, systemd's
//     prefixes (-, @, :, +, !) dropped;
//   - MarkdownShellCommands: every command in the fenced ```sh / ```bash /
//     ```shell / ```console blocks of a Markdown file, with a leading `$ `
//     prompt, `sudo [-E] [-u USER]`, `env`, `exec`, `nohup` and VAR=value
//     assignments dropped, so that words[0] is the program.
// Line numbers are 1-based lines of the whole file.
//
// Errors: InvalidArgument naming the line of an unterminated quote or block.
#pragma once

#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "shell_words.h"

namespace trestle::deploy {

absl::StatusOr<std::vector<ShellCommand>> ExecStartCommands(std::string_view unit_text);
absl::StatusOr<std::vector<ShellCommand>> MarkdownShellCommands(std::string_view markdown);

}  // namespace trestle::deploy

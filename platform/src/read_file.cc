#include "trestle/platform/read_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace trestle::platform {
namespace {

absl::Status ReadError(std::string_view what, const std::string& path, int error) {
  const std::string text =
      absl::StrCat("cannot read ", std::string(what), " '", path, "': ", std::strerror(error));
  if (error == ENOENT || error == ENOTDIR) return absl::NotFoundError(text);
  if (error == EACCES || error == EPERM) return absl::PermissionDeniedError(text);
  return absl::UnavailableError(text);
}

}  // namespace

absl::StatusOr<std::string> ReadFile(const std::string& path, std::string_view what) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ReadError(what, path, errno);
  std::string text;
  char buffer[64 * 1024];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      close(fd);
      return ReadError(what, path, error);
    }
    text.append(buffer, static_cast<std::size_t>(n));
  }
  close(fd);
  return text;
}

}  // namespace trestle::platform

#include "wire_status.h"

#include <gtest/gtest.h>

#include "trestle/status.h"

namespace trestle::internal {
namespace {

wire::Error MakeError(wire::ErrorCode code, const std::string& text, std::uint64_t ref = 0) {
  wire::Error e;
  e.set_code(code);
  e.set_text(text);
  e.set_ref_id(ref);
  return e;
}

TEST(WireStatusTest, MapsEveryWireCodeToItsAbslCode) {
  struct Case {
    wire::ErrorCode wire;
    absl::StatusCode absl;
  };
  for (const Case& c : {Case{wire::UNAUTHENTICATED, absl::StatusCode::kUnauthenticated},
                        Case{wire::PERMISSION_DENIED, absl::StatusCode::kPermissionDenied},
                        Case{wire::ALREADY_EXISTS, absl::StatusCode::kAlreadyExists},
                        Case{wire::NOT_FOUND, absl::StatusCode::kNotFound},
                        Case{wire::BAD_FRAME, absl::StatusCode::kInvalidArgument},
                        Case{wire::BAD_REQUEST, absl::StatusCode::kInvalidArgument},
                        Case{wire::UNSUPPORTED_VERSION, absl::StatusCode::kFailedPrecondition},
                        Case{wire::SHUTTING_DOWN, absl::StatusCode::kUnavailable},
                        Case{wire::UNAVAILABLE, absl::StatusCode::kUnavailable},
                        Case{wire::RESOURCE_EXHAUSTED, absl::StatusCode::kResourceExhausted},
                        Case{wire::ERROR_UNSPECIFIED, absl::StatusCode::kUnknown}}) {
    EXPECT_EQ(StatusCodeFromWire(c.wire), c.absl) << wire::ErrorCode_Name(c.wire);
  }
}

TEST(WireStatusTest, KeepsTheDaemonsTextAfterTheContext) {
  absl::Status s = StatusFromWireError(MakeError(wire::UNAUTHENTICATED, "wrong auth token"),
                                       "connect to 127.0.0.1:7878");
  EXPECT_EQ(s.code(), absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(s.message(), "connect to 127.0.0.1:7878: wrong auth token");
}

TEST(WireStatusTest, NamesTheCodeWhenTheDaemonSentNoText) {
  absl::Status s = StatusFromWireError(MakeError(wire::NOT_FOUND, ""));
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(s.message(), "NOT_FOUND");
}

TEST(WireStatusTest, CarriesTheRefIdAsMessageId) {
  absl::Status with = StatusFromWireError(MakeError(wire::BAD_REQUEST, "no dst", 4294967297u));
  EXPECT_EQ(MessageIdOf(with), std::optional<std::uint64_t>(4294967297u));
  absl::Status without = StatusFromWireError(MakeError(wire::BAD_REQUEST, "no dst"));
  EXPECT_EQ(MessageIdOf(without), std::nullopt);
  EXPECT_EQ(MessageIdOf(absl::OkStatus()), std::nullopt);
}

TEST(WireStatusTest, AnUnknownFutureCodeIsStillAnError) {
  absl::Status s = StatusFromWireError(MakeError(static_cast<wire::ErrorCode>(99), "new"));
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), absl::StatusCode::kUnknown);
}

}  // namespace
}  // namespace trestle::internal

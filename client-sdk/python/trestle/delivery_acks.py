"""DeliveryAcks: the app's side of delivery acknowledgements
(docs/protocol.md, "Delivery acknowledgements"): the highest delivery_seq
taken in, duplicates below it, and one cumulative Ack per loop pass."""
import asyncio

from trestle.wire import pb


class DeliveryAcks:
    def __init__(self, write):
        self._write = write      # write(frame) on the recv channel
        self.highest_seen = 0
        self._acked = 0
        self._scheduled = False

    def reset(self) -> None:
        """A session with another numbering: start over."""
        self.highest_seen = 0
        self._acked = 0

    def take(self, delivery_seq: int) -> bool:
        """Whether this delivery is new; either way it is acknowledged at the
        next schedule()."""
        fresh = delivery_seq > self.highest_seen
        if fresh:
            self.highest_seen = delivery_seq
        self._acked = min(self._acked, delivery_seq - 1)  # acknowledged again
        return fresh

    def schedule(self) -> None:
        """The Ack leaves at the end of this loop pass: call once the batch's
        payloads are in hand (a by-key payload is taken from the store
        first, since the daemon unlinks its key at the Ack)."""
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Writes the Ack for everything taken in so far, if not yet sent."""
        self._scheduled = False
        if self.highest_seen == 0 or self._acked >= self.highest_seen:
            return
        frame = pb.Frame()
        frame.ack.delivery_seq = self.highest_seen
        try:
            self._write(frame)
        except Exception:  # the session ended: a resume re-sends and re-acks
            return
        self._acked = self.highest_seen

// The gRPC-Web client of the chessd that served the page. Calls made for a seat go through
// `Seat` (seat.ts), the only code that attaches a seat token.

import { createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";

import { GameService } from "./gen/chessd/v1/chessd_pb.js";

export const client = createClient(
  GameService,
  createGrpcWebTransport({ baseUrl: location.origin, useBinaryFormat: true }),
);

"""What every endpoint under /api/v1/ shares: its JSON parser, error shape and throttles."""

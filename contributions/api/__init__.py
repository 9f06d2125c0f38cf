"""The contributions API under /api/v1/: proposals, sheets, the review queue, card history."""

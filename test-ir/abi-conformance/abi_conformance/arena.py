"""Fixed addresses the x86_64 driver (driver.c) maps: pointer values the
generator draws point into the arena; `out` is OUT_ADDR."""

ARENA = 0x200000000000
ARENA_SIZE = 1 << 20
OUT_ADDR = ARENA + ARENA_SIZE
OUT_SIZE = 1 << 16
FILL = 0xCD  # the driver fills the record with this before each call

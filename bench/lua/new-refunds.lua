-- Every request a new refund (a key never used before) of 100 minor units of one of the
-- payments listed in REFUND_PAYMENTS; see refund_target in common.lua.
dofile(os.getenv("BENCH_DIR") .. "/lua/common.lua")
load_payment_ids()
local n = 0

request = function()
  n = n + 1
  return refund("refund-" .. run .. "-" .. tid .. "-" .. n, refund_target(tid, n))
end

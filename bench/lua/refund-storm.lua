-- A same-key refund storm: every connection of every thread sends the same refund key for one
-- second, then all move to the next key (and the next payment), so each key meets all
-- connections at once.
dofile(os.getenv("BENCH_DIR") .. "/lua/common.lua")
load_payment_ids()

request = function()
  local second = os.time()
  return refund("rstorm-" .. run .. "-" .. second, payment_ids[second % #payment_ids + 1])
end

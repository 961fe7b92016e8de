-- Every request a replay of a completed refund: REPLAY_RUN's keys 1..REPLAY_KEYS of threads
-- 1..REPLAY_THREADS, which an earlier new-refunds window created, each with its own request.
dofile(os.getenv("BENCH_DIR") .. "/lua/common.lua")
load_payment_ids()
local keys = tonumber(os.getenv("REPLAY_KEYS") or "500")
local source_threads = tonumber(os.getenv("REPLAY_THREADS") or "2")
local source_run = os.getenv("REPLAY_RUN")
local n = 0

request = function()
  n = n + 1
  local thread = (n % source_threads) + 1
  local i = (math.floor(n / source_threads) % keys) + 1
  return refund("refund-" .. source_run .. "-" .. thread .. "-" .. i, refund_target(thread, i))
end

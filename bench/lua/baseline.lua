-- The HTTP baseline: the same request as a new payment, to an endpoint with no database work,
-- and so without credentials either (authentication is a database lookup).
dofile(os.getenv("BENCH_DIR") .. "/lua/common.lua")
local n = 0

request = function()
  n = n + 1
  local key = "base-" .. run .. "-" .. tid .. "-" .. n
  return wrk.format("POST", "/bench/baseline", {
    ["Content-Type"] = "application/json",
    ["Idempotency-Key"] = key,
  }, '{"orderId":"' .. key .. '","amount":1200,"currency":"ILS"}')
end

-- The HTTP baseline: the same request shape as a new payment, to an endpoint with no database.
dofile(os.getenv("BENCH_DIR") .. "/lua/common.lua")
local n = 0

request = function()
  n = n + 1
  local key = "base-" .. run .. "-" .. tid .. "-" .. n
  return wrk.format("POST", "/bench/baseline", {
    ["Authorization"] = "Bearer " .. api_key,
    ["Content-Type"] = "application/json",
    ["Idempotency-Key"] = key,
  }, '{"orderId":"' .. key .. '","amount":1200,"currency":"ILS"}')
end

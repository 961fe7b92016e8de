-- wrk script for `cluster.sh throughput`: every request is a new payment (its own
-- Idempotency-Key: WRK_PREFIX, the thread's number and a counter), by the client whose key is
-- PAYONCE_API_KEY. wrk counts any answer other than 2xx/3xx as "Non-2xx or 3xx responses".
local threads = 0
local prefix = os.getenv("WRK_PREFIX") or "wrk"
local auth = "Bearer " .. (os.getenv("PAYONCE_API_KEY") or "")

function setup(thread)
  threads = threads + 1
  thread:set("number", threads)
end

function init(args)
  counter = 0
end

function request()
  counter = counter + 1
  local key = prefix .. "-" .. number .. "-" .. counter
  return wrk.format("POST", "/payments", {
    ["Authorization"] = auth,
    ["Content-Type"] = "application/json",
    ["Idempotency-Key"] = key,
  }, '{"orderId": "' .. key .. '", "amount": 1200, "currency": "ILS"}')
end

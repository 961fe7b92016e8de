-- Shared by the wrk scripts: numbers the threads so every request can carry a key unique to
-- this run (RUN), this thread and this request. PAYONCE_API_KEY authenticates.
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

api_key = os.getenv("PAYONCE_API_KEY") or ""
run = os.getenv("RUN") or tostring(os.time())

function payment(key)
  return wrk.format("POST", "/payments", {
    ["Authorization"] = "Bearer " .. api_key,
    ["Content-Type"] = "application/json",
    ["Idempotency-Key"] = key,
  }, '{"orderId":"' .. key .. '","amount":1200,"currency":"ILS"}')
end

-- Refunds: REFUND_PAYMENTS names a file of SUCCEEDED payment ids of this client, one a line.
-- Request n of thread t refunds 100 minor units of payment refund_target(t, n): consecutive
-- requests of a thread spread over different payments, and the threads never share one, so
-- refunds compete for a payment row only as often as a real client's would.
refund_threads = 2
payment_ids = {}

function load_payment_ids()
  local path = os.getenv("REFUND_PAYMENTS")
  if path then
    for line in io.lines(path) do
      if line ~= "" then
        payment_ids[#payment_ids + 1] = line
      end
    end
  end
end

function refund_target(t, n)
  return payment_ids[((n - 1) * refund_threads + (t - 1)) % #payment_ids + 1]
end

function refund(key, payment_id)
  return wrk.format("POST", "/payments/" .. payment_id .. "/refunds", {
    ["Authorization"] = "Bearer " .. api_key,
    ["Content-Type"] = "application/json",
    ["Idempotency-Key"] = key,
  }, '{"amount":100,"reason":"requested_by_customer"}')
end

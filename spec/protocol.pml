/*
 * Payonce's "never charge twice" protocol as docs/design.md states it (sections 4, 5, 8
 * and 10), model-checked by spin (spec/check.sh; docs/design.md section 14).
 *
 * What runs, all on one payment key of one client (one scope):
 *  - NREQ client requests with the key (IdempotencyService.execute), each one HTTP request:
 *    claim, replay, 409, or takeover of an ended lease, then the act step, then a fenced
 *    completion or release;
 *  - the reconciler (IdempotencyReconciler.reconcile with ProviderReconciliation.settle),
 *    restarted after a crash;
 *  - a webhook event that applies the provider's outcome (ProviderEvents.apply through
 *    IdempotencyService.completeResource), delivered at least once;
 *  - the provider (Stripe, as StripePaymentGateway sees it): deduplicates by provider
 *    idempotency key, replays its first answer (a saved 500 included) until it forgets its
 *    keys, finishes a request whose caller timed out later or never, and answers lookups;
 *  - two refunds of the payment with their own keys (RefundService), each retried by its
 *    client until it gets a final answer;
 *  - time: leases end, the lookup settle time passes, the payment ages past the give-up
 *    window and then past the provider's key retention.
 * Crashes: any request, the reconciler or a refund request may stop at any step, leaving
 * what it committed (its lease runs out).
 *
 * Bounds (spec/check.sh prints the state counts): NREQ client requests (2), MAXGEN provider
 * key generations (2), MAXFAULT injected faults in total (2, 1 for the liveness check: lost
 * answers, timed-out requests still in flight, saved 500s, failed lookups, lost refund
 * answers), MAXCRASH
 * crashes (1), RECON_YOUNG reconciler rounds inside the give-up window (2; the window is
 * finite, the reconciler's interval is not zero), WEBHOOK_DELIVERIES (2), the payment's
 * amount PAID (2 minor units) and refunds of 2 and 1 minor units.
 *
 * Abstractions, each sound for the properties below:
 *  - A step of a transaction or of one statement is one atomic step (PostgreSQL's unique
 *    index and row locks make it so, docs/design.md sections 3 and 4).
 *  - The lookup is consistent (retrieve by id, or a list over the payment's creation window:
 *    it sees every PaymentIntent the provider has made). What makes "not found" proof is
 *    then only that no create call can still show up: the settle time. Here the settle time
 *    passing (proc SettleTime) is one step that needs every request in flight to have been
 *    executed or dropped by the provider; it marks the last lease end and the last replay as
 *    older than the settle time.
 *  - A lease does not end between its claim or takeover and the end of the attempt's charge
 *    call: the lease exceeds the call's worst case (LeaseGuard), and docs/design.md section 5
 *    relies on "every call ends within its lease". The request itself may stay in flight
 *    after the caller gave up. IdempotencyService.act starts an act only while the lease
 *    has room for the operation's act budget (a thread paused past its lease between claim
 *    and call releases instead); mutant LATE_SEND shows that this check is needed
 *    (docs/design.md sections 4 and 14).
 *  - Refunds use one provider key each (their key generations follow the payments' rule and
 *    are checked on the payment); the refund provider call executes or not when it times out.
 *
 * Mutants (each removes one safeguard; spec/check.sh requires a counterexample of each):
 *   NO_FENCE               completion not fenced by the attempt (IdempotencyRecords.complete)
 *   ATTEMPT_KEY            provider key from the attempt, not from payment id and generation
 *   NO_SETTLE              a generation step or give-up without the settle time
 *   SEND_AFTER_GIVEUP      a charge sent past the give-up window (ProviderOperation pastGiveUpWindow)
 *   RESERVE_OUTSIDE_CLAIM  the refund's reservation checked before, not in, the claim
 *   LATE_SEND              a charge sent after its lease ended (the thread paused past it)
 *   NO_RECONCILER          no reconciler (for no_key_stuck: a crash leaves a key in progress)
 */

#ifndef NREQ
#define NREQ 2
#endif
#ifndef MAXGEN
#define MAXGEN 2
#endif
#ifndef MAXFAULT
#define MAXFAULT 2
#endif
#ifndef MAXCRASH
#define MAXCRASH 1
#endif
#ifndef RECON_YOUNG
#define RECON_YOUNG 2
#endif
#ifndef WEBHOOK_DELIVERIES
#define WEBHOOK_DELIVERIES 2
#endif
#define PAID 2
#define KEYS 8

/* idempotency record (idempotency_records.status; NONE = no row) */
#define NONE 0
#define INPROG 1
#define DONE 2

/* payment status (payments.status) */
#define PENDING 1
#define SUCCEEDED 2
#define DECLINED 3
#define FAILED 4

/* stored responses: 201 receipt, 402 payment-declined, 402 payment-failed */
#define A_201 1
#define A_402D 2
#define A_402F 3

/* what the provider saved under a key */
#define P_CHARGED 1
#define P_DECLINED 2
#define P_500 3

/* answers of a provider call or lookup (GatewayResult) */
#define R_APPROVED 1
#define R_DECLINED 2
#define R_UNKNOWN 3
#define R_REPLAYED 4
#define R_NOTFOUND 5

/* the payment's age (payments.created_at against the windows, LeaseGuard keeps them apart) */
#define YOUNG 0
#define GIVEUP 1
#define RETENTION 2

/* ---- the database ---- */
byte rec = NONE;	/* the payment key's idempotency record */
byte att;		/* its attempt number */
bit live;		/* its lease has not ended */
bit lease_old;		/* the settle time has passed since its lease ended */
byte pay;		/* the payment's status */
byte gen = 1;		/* payments.provider_key_generation */
bit replayed;		/* payments.provider_key_replayed_at is set */
bit replay_old;		/* ... and is older than the settle time */
byte answer;		/* the stored response */

byte rrec[2];		/* the refunds' idempotency records */
byte ratt[2];
bit rlive[2];
byte refunded;		/* payments.refunded_amount */
byte reserved;		/* payments.refunds_in_flight */

/* ---- the provider ---- */
byte pkey[KEYS];	/* what it saved under each payment key (forgotten after retention) */
byte charges;		/* charges it made for the payment, under any key */
byte declines;
byte inflight;		/* keys with a request sent whose caller gave up (bit per key) */
byte rsaved[2];		/* what it saved under each refund key */
byte rmade[2];		/* refunds it made under each refund key */

/* ---- time and budgets ---- */
byte age = YOUNG;
byte window_users;	/* attempts between the give-up window check and their charge */
bit acting;		/* an attempt is between its claim or takeover and the end of its charge call */
byte faults;
byte crashes;

/* ---- ghosts: what clients were told ---- */
byte first;		/* the first final answer stored for the key */

/* named properties, so that a violation names one; 1 unless violated */
bit at_most_one_charge = 1;
bit at_most_one_refund_per_key = 1;
bit refunded_within_paid = 1;
bit replay_is_first_answer = 1;
bit stale_attempt_changes_nothing = 1;

inline check_charges() {
	at_most_one_charge = (charges <= 1);
	assert(at_most_one_charge)
}

inline check_replay(seen) {
	replay_is_first_answer = (seen == first);
	assert(replay_is_first_answer)
}

/* The provider idempotency key of an attempt: derived from the payment id and its key
 * generation (ProviderOperation.act, Payment.chargeRequest); mutant: from the attempt. */
#ifdef ATTEMPT_KEY
#define KEY(g, a) (a)
#else
#define KEY(g, a) (g)
#endif

/* The reconciler takes a payment record over only the settle time after its lease ended
 * (ReconciliationStep.settleTime, IdempotencyReconciler.staleAfter). */
#ifdef NO_SETTLE
#define SETTLED_SINCE_LEASE 1
#define SETTLED_SINCE_REPLAY 1
#else
#define SETTLED_SINCE_LEASE lease_old
#define SETTLED_SINCE_REPLAY replay_old
#endif

/* The completion fence (IdempotencyRecords.complete: the held CTE, attempt = this attempt). */
#ifdef NO_FENCE
#define FENCE(a) (rec != NONE)
#define FENCE_REFUND(r, a) (rrec[r] != NONE)
#else
#define FENCE(a) (rec == INPROG && att == a)
#define FENCE_REFUND(r, a) (rrec[r] == INPROG && ratt[r] == a)
#endif

/* LeaseGuard: the lease exceeds the charge call's worst case, so a lease does not end
 * between its claim or takeover and the end of the attempt's charge call. Mutant LATE_SEND:
 * the attempt may be paused past its lease before it sends (what IdempotencyService.act's
 * act-budget check refuses; docs/design.md sections 4 and 14). */
#ifdef LATE_SEND
#define CALL_WITHIN_LEASE 1
#else
#define CALL_WITHIN_LEASE (!acting)
#endif

/* The provider executes a charge under key k (StripePaymentGateway.charge; Stripe saves
 * the first answer to a key, a 500 included: https://docs.stripe.com/api/idempotent_requests). */
inline execute(k, res) {
	if
	:: pkey[k] == P_CHARGED -> res = R_APPROVED
	:: pkey[k] == P_DECLINED -> res = R_DECLINED
	:: pkey[k] == P_500 -> res = R_REPLAYED
	:: pkey[k] == 0 ->
		if
		:: charges++; pkey[k] = P_CHARGED; res = R_APPROVED
		:: declines++; pkey[k] = P_DECLINED; res = R_DECLINED
		:: faults < MAXFAULT -> faults++; pkey[k] = P_500; res = R_UNKNOWN
		fi
	fi;
	check_charges()
}

/* A consistent lookup (StripePaymentGateway.lookup; ProviderOperation.settleByLookup,
 * ProviderReconciliation.settle), which may itself fail. */
inline lookup(res) {
	if
	:: faults < MAXFAULT -> faults++; res = R_UNKNOWN
	:: charges > 0 -> res = R_APPROVED
	:: charges == 0 && declines > 0 -> res = R_DECLINED
	:: charges == 0 && declines == 0 -> res = R_NOTFOUND
	fi
}

/* The fenced completion (IdempotencyService.complete -> IdempotencyRecords.complete, one
 * statement with the payment's versioned write, the row's declared Transition). A stale attempt writes
 * nothing and its client is answered from the record: a replay, or 409 while another
 * attempt holds it. Whatever a client is told is the first final answer. */
inline finish(a, ans, status) {
	if
	:: FENCE(a) ->
		stale_attempt_changes_nothing = (rec == INPROG && att == a);
		assert(stale_attempt_changes_nothing);
		rec = DONE; live = 0; pay = status; answer = ans;
		if
		:: first == 0 -> first = ans
		:: else -> skip
		fi;
		check_replay(ans)
	:: else ->
		if
		:: rec == DONE -> check_replay(answer)
		:: else -> skip
		fi
	fi
}

/* The fenced release (IdempotencyService.release -> IdempotencyRecords.release), with what
 * the act step learned (ProviderSteps.learned: the key was replayed) or a new key
 * generation (ProviderSteps.newProviderKeyGeneration, which refuses another generation). */
inline release(a, learned_replay, next_gen, from) {
	if
	:: rec == INPROG && att == a ->
		live = 0; lease_old = 0;
		if
		:: learned_replay -> replayed = 1; replay_old = 0
		:: else -> skip
		fi;
		if
		:: next_gen && gen == from -> gen++; replayed = 0; replay_old = 0
		:: else -> skip
		fi
	:: else -> skip
	fi
}

/* A crash inside a step's atomic sequence: what the step did is committed, nothing after. */
#define CRASH_AFTER(where) if :: crashes < MAXCRASH -> crashes++; goto where :: true -> skip fi

/* One client request with the key: IdempotencyService.execute with PaymentService.charge (a ProviderOperation.Request).
 * Each atomic block is one step: a transaction, one statement, or one provider call. */
proctype Client() {
	byte a, res, my_gen;

	/* Claim (IdempotencyRecords.insertClaim: INSERT ... ON CONFLICT DO NOTHING, with the
	 * PENDING payment), replay, 409, or takeover of an ended lease (IdempotencyRecords.takeOver,
	 * fenced by the expired attempt; the payment is reloaded, PaymentService.load); then the
	 * act step's choice (ProviderOperation.act): a key answered from what the provider
	 * saved is looked up, not charged again; no charge past the give-up window
	 * (ProviderOperation.pastGiveUpWindow). */
	atomic {
		if
		:: rec == NONE -> rec = INPROG; att = 1; live = 1; lease_old = 0; pay = PENDING; a = 1
		:: rec == INPROG && live -> goto end_client	/* 409 in progress */
		:: rec == INPROG && !live -> att++; live = 1; a = att
		:: rec == DONE -> check_replay(answer); goto end_client
		fi;
		my_gen = gen;
		if
		:: replayed -> goto by_lookup
		:: else -> skip
		fi;
#ifdef SEND_AFTER_GIVEUP
		window_users++; acting = 1
#else
		if
		:: age == YOUNG -> window_users++; acting = 1
		:: else -> release(a, 0, 0, 0); goto end_client	/* left to reconciliation */
		fi
#endif
		if
		:: crashes < MAXCRASH -> crashes++; window_users--; acting = 0; goto end_client
		:: true -> skip
		fi
	}

	/* The charge call under the provider key (ProviderOperation.act,
	 * StripePaymentGateway.charge): answered; executed but the answer lost; or timed out
	 * with the request still on its way. */
	atomic {
		if
		:: execute(KEY(my_gen, a), res)
		:: faults < MAXFAULT -> faults++; execute(KEY(my_gen, a), res); res = R_UNKNOWN
		:: faults < MAXFAULT -> faults++; inflight = inflight | (1 << KEY(my_gen, a)); res = R_UNKNOWN
		fi;
		window_users--; acting = 0;
		CRASH_AFTER(end_client)
	}

	/* The fenced completion or release (IdempotencyService.act). */
	atomic {
		if
		:: res == R_APPROVED -> finish(a, A_201, SUCCEEDED)
		:: res == R_DECLINED -> finish(a, A_402D, DECLINED)
		:: res == R_UNKNOWN -> release(a, 0, 0, 0)
		:: res == R_REPLAYED -> release(a, 1, 0, 0)
		fi;
		goto end_client
	}

by_lookup:
	/* ProviderOperation.settleByLookup */
	atomic {
		lookup(res);
		CRASH_AFTER(end_client)
	}
	atomic {
		if
		:: res == R_APPROVED -> finish(a, A_201, SUCCEEDED)
		:: res == R_DECLINED -> finish(a, A_402D, DECLINED)
		:: res == R_UNKNOWN -> release(a, 0, 0, 0)
		/* ProviderOperation.provesNone: the key was replayed at least the settle time ago */
		:: res == R_NOTFOUND && !SETTLED_SINCE_REPLAY -> release(a, 0, 0, 0)
		:: res == R_NOTFOUND && SETTLED_SINCE_REPLAY && age != YOUNG -> finish(a, A_402F, FAILED)
		:: res == R_NOTFOUND && SETTLED_SINCE_REPLAY && age == YOUNG && my_gen < MAXGEN -> release(a, 0, 1, my_gen)
		:: res == R_NOTFOUND && SETTLED_SINCE_REPLAY && age == YOUNG && my_gen >= MAXGEN -> release(a, 0, 0, 0)	/* bound */
		fi
	}
end_client:
	a = 0; res = 0; my_gen = 0
}

/* IdempotencyReconciler.reconcile with ProviderReconciliation.settle; after a crash the
 * next instance's reconciler carries on. */
proctype Reconciler() {
	byte a, res, my_gen, young_rounds;

end_idle:
	do
	:: rec == DONE -> break
	:: atomic {
		/* IdempotencyRecords.takeOverStale: IN_PROGRESS, lease ended at least the
		 * settle time ago; then the lookup */
		rec == INPROG && !live && SETTLED_SINCE_LEASE && (age != YOUNG || young_rounds < RECON_YOUNG) ->
			att++; live = 1; a = att; my_gen = gen;
			if
			:: age == YOUNG -> young_rounds++
			:: else -> skip
			fi;
			CRASH_AFTER(next_round)
		}
		atomic {
			lookup(res);
			CRASH_AFTER(next_round)
		}
		atomic {
			if
			:: res == R_APPROVED -> finish(a, A_201, SUCCEEDED)		/* Settlement.Found */
			:: res == R_DECLINED -> finish(a, A_402D, DECLINED)		/* Settlement.Found */
			:: res == R_UNKNOWN -> release(a, 0, 0, 0)			/* Settlement.Unsettled */
			:: res == R_NOTFOUND && age != YOUNG -> finish(a, A_402F, FAILED)	/* Settlement.GaveUp */
			:: res == R_NOTFOUND && age == YOUNG && my_gen < MAXGEN -> release(a, 0, 1, my_gen)	/* Settlement.Reattempt */
			:: res == R_NOTFOUND && age == YOUNG && my_gen >= MAXGEN -> release(a, 0, 0, 0)	/* bound */
			fi
		}
next_round:
		a = 0; res = 0; my_gen = 0
	od
}

/* A payment_intent.succeeded or .payment_failed event (ProviderEvents.apply): once the
 * provider decided, delivered at least once. A delivery takes the payment's record over
 * only if its lease ended (IdempotencyRecords.takeOverResource) and completes it fenced
 * (IdempotencyService.completeResource); here both are one step, as nothing but the
 * fence could stop the completion that follows the takeover. A live lease: 409 and
 * Stripe delivers again; a completed record: ignored. */
proctype Webhook() {
	byte deliveries;

end_wait:
	do
	:: atomic {
		(charges > 0 || declines > 0) && deliveries < WEBHOOK_DELIVERIES ->
			deliveries++;
			if
			:: rec == INPROG && !live ->
				att++; live = 1;
				if
				:: charges > 0 -> finish(att, A_201, SUCCEEDED)
				:: else -> finish(att, A_402D, DECLINED)
				fi
			:: else -> skip
			fi
		}
	:: deliveries == WEBHOOK_DELIVERIES -> break
	od
}

/* The provider finishes (or drops) a request whose caller timed out. */
proctype Network() {
	byte k, res;
end_net:
	do
	:: atomic {
		inflight != 0 ->
			k = 0;
			do
			:: (inflight & (1 << k)) == 0 -> k++
			:: else -> break
			od;
			inflight = inflight & ~(1 << k);
			if
			:: execute(k, res)
			:: skip	/* dropped */
			fi;
			k = 0
		}
	od
}

/* A lease ends (Lease.lockedUntil passes). */
proctype LeaseClock() {
end_lease:
	do
	:: atomic { rec == INPROG && live && CALL_WITHIN_LEASE -> live = 0; lease_old = 0 }
	od
}

proctype RefundLeaseClock(byte r) {
end_lease:
	do
	:: atomic { rrec[r] == INPROG && rlive[r] -> rlive[r] = 0 }
	od
}

/* The lookup settle time passes: nothing sent before can still show up at the provider. */
proctype SettleTime() {
end_settle:
	do
	:: atomic {
		inflight == 0 && ((rec == INPROG && !live && !lease_old) || (replayed && !replay_old)) ->
			if
			:: rec == INPROG && !live -> lease_old = 1
			:: else -> skip
			fi;
			replay_old = replayed
		}
	od
}

/* The payment ages past the give-up window, then past the provider's key retention, when
 * the provider forgets its keys (Stripe: 24 hours). LeaseGuard keeps give-up + lease short
 * of the retention, so a charge whose window check passed reaches the provider before it. */
proctype Calendar() {
	byte k;
	age = GIVEUP;
	atomic {
		window_users == 0 && inflight == 0 ->
			age = RETENTION;
			k = 0;
			do
			:: k < KEYS -> pkey[k] = 0; k++
			:: else -> break
			od
	}
}

/* A refund of the payment with its own key, retried by its client until a final answer:
 * RefundService.refund. The claim reserves the amount in the claim's own statement
 * (RefundReservations.reserve as the ClaimUpdate of Refund.insertAfter). */
proctype Refund(byte r; byte amount) {
	byte a, res;
	bit fits;

end_wait:
	pay == SUCCEEDED;
	do
	:: true ->
#ifdef RESERVE_OUTSIDE_CLAIM
		atomic { fits = (refunded + reserved + amount <= PAID) }
#endif
		atomic {
			if
			:: rrec[r] == NONE ->
#ifndef RESERVE_OUTSIDE_CLAIM
				fits = (refunded + reserved + amount <= PAID);
#endif
				if
				:: fits ->
					rrec[r] = INPROG; ratt[r] = 1; rlive[r] = 1; a = 1; reserved = reserved + amount;
					refunded_within_paid = (refunded + reserved <= PAID);
					assert(refunded_within_paid)
				:: else -> break	/* 409 refund-exceeds-refundable, nothing stored */
				fi
			:: rrec[r] == INPROG && rlive[r] -> goto retry	/* 409 in progress */
			:: rrec[r] == INPROG && !rlive[r] -> ratt[r]++; rlive[r] = 1; a = ratt[r]
			:: rrec[r] == DONE -> break	/* replay */
			fi;
			CRASH_AFTER(retry)
		}
		/* the refund call under the refund's provider key (StripePaymentGateway.refund) */
		atomic {
			if
			:: rsaved[r] != 0 -> res = rsaved[r]
			:: rsaved[r] == 0 ->
				if
				:: rmade[r]++; rsaved[r] = R_APPROVED; res = R_APPROVED
				:: rsaved[r] = R_DECLINED; res = R_DECLINED
				fi
			fi;
			at_most_one_refund_per_key = (rmade[r] <= 1);
			assert(at_most_one_refund_per_key);
			if
			:: faults < MAXFAULT -> faults++; res = R_UNKNOWN	/* answer lost */
			:: true -> skip
			fi;
			CRASH_AFTER(retry)
		}
		/* the fenced completion settles the reservation in the same statement
		 * (RefundReservations.settlement), or the fenced release keeps it */
		atomic {
			if
			:: FENCE_REFUND(r, a) && res == R_APPROVED ->
				stale_attempt_changes_nothing = (rrec[r] == INPROG && ratt[r] == a);
				assert(stale_attempt_changes_nothing);
				rrec[r] = DONE; rlive[r] = 0; reserved = reserved - amount; refunded = refunded + amount;
				refunded_within_paid = (refunded + reserved <= PAID);
				assert(refunded_within_paid)
			:: FENCE_REFUND(r, a) && res == R_DECLINED ->
				stale_attempt_changes_nothing = (rrec[r] == INPROG && ratt[r] == a);
				assert(stale_attempt_changes_nothing);
				rrec[r] = DONE; rlive[r] = 0; reserved = reserved - amount
			:: rrec[r] == INPROG && ratt[r] == a && res == R_UNKNOWN -> rlive[r] = 0
			:: else -> skip
			fi
		}
retry:
		a = 0; res = 0
	od
}

/* Two configurations of one model, so that each state space stays small: the payment
 * key (default), and with -DREFUNDS its refunds, starting from the SUCCEEDED payment. */
init {
	byte i;
	atomic {
#ifdef REFUNDS
		rec = DONE; att = 1; pay = SUCCEEDED; answer = A_201; first = A_201; charges = 1; pkey[1] = P_CHARGED;
		run Refund(0, 2);
		run Refund(1, 1);
		run RefundLeaseClock(0);
		run RefundLeaseClock(1)
#else
		do
		:: i < NREQ -> run Client(); i++
		:: else -> break
		od;
#ifndef NO_RECONCILER
		run Reconciler();
#endif
		run Webhook();
		run Network();
		run LeaseClock();
		run SettleTime();
		run Calendar()
#endif
	}
}

/* No key stuck forever: under weak fairness every claimed key is eventually completed. */
ltl no_key_stuck {
	[] ((rec == INPROG -> <> (rec == DONE))
		&& (rrec[0] == INPROG -> <> (rrec[0] == DONE))
		&& (rrec[1] == INPROG -> <> (rrec[1] == DONE)))
}

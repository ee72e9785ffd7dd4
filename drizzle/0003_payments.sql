CREATE TABLE "simulated_checkout_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"booking_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"payment_intent_id" text,
	"success_url" text NOT NULL,
	"cancel_url" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "simulated_checkout_sessions_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "simulated_checkout_sessions_status_valid" CHECK ("simulated_checkout_sessions"."status" in ('open', 'complete')),
	CONSTRAINT "simulated_checkout_sessions_complete_paid" CHECK ("simulated_checkout_sessions"."status" <> 'complete' or ("simulated_checkout_sessions"."payment_intent_id" is not null and "simulated_checkout_sessions"."completed_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "simulated_payment_intents" (
	"id" text PRIMARY KEY NOT NULL,
	"client_secret" text NOT NULL,
	"booking_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'requires_payment_method' NOT NULL,
	"idempotency_key" text,
	"last_error_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"succeeded_at" timestamp with time zone,
	CONSTRAINT "simulated_payment_intents_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "simulated_payment_intents_status_valid" CHECK ("simulated_payment_intents"."status" in ('requires_payment_method', 'succeeded', 'canceled')),
	CONSTRAINT "simulated_payment_intents_amount_positive" CHECK ("simulated_payment_intents"."amount" > 0),
	CONSTRAINT "simulated_payment_intents_succeeded_at" CHECK ("simulated_payment_intents"."status" <> 'succeeded' or "simulated_payment_intents"."succeeded_at" is not null)
);
--> statement-breakpoint
CREATE TABLE "simulated_provider_settings" (
	"id" integer PRIMARY KEY NOT NULL,
	"webhook_secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "simulated_provider_settings_one_row" CHECK ("simulated_provider_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "simulated_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_intent_id" text NOT NULL,
	"amount" integer NOT NULL,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "simulated_refunds_payment_intent_id_unique" UNIQUE("payment_intent_id"),
	CONSTRAINT "simulated_refunds_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
ALTER TABLE "simulated_checkout_sessions" ADD CONSTRAINT "simulated_checkout_sessions_payment_intent_id_simulated_payment_intents_id_fk" FOREIGN KEY ("payment_intent_id") REFERENCES "public"."simulated_payment_intents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "simulated_refunds" ADD CONSTRAINT "simulated_refunds_payment_intent_id_simulated_payment_intents_id_fk" FOREIGN KEY ("payment_intent_id") REFERENCES "public"."simulated_payment_intents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pagamenti" ADD CONSTRAINT "pagamenti_provider_valid" CHECK ("pagamenti"."provider" in ('stripe', 'simulated'));--> statement-breakpoint
ALTER TABLE "pagamenti" ADD CONSTRAINT "pagamenti_completed_has_payment" CHECK ("pagamenti"."status" <> 'completed' or ("pagamenti"."provider_payment_id" is not null and "pagamenti"."completed_at" is not null));--> statement-breakpoint
ALTER TABLE "pagamenti" ADD CONSTRAINT "pagamenti_refunded_has_payment" CHECK ("pagamenti"."status" <> 'refunded' or ("pagamenti"."provider_payment_id" is not null and "pagamenti"."refunded_at" is not null));--> statement-breakpoint
-- Written by hand (drizzle-kit cannot express triggers): the life of a payment, kept by the
-- database (behaviour.md §3, invariant 3; docs/decisions/012-payments.md). A payment is
-- completed at most once and never goes back: pending → completed | failed | refunded,
-- completed → refunded, failed → refunded (a late payment, refunded at once); nothing
-- leaves refunded.
CREATE FUNCTION bicielis_payment_transition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IS DISTINCT FROM OLD.status AND NOT (
       (OLD.status = 'pending' AND NEW.status IN ('completed', 'failed', 'refunded'))
    OR (OLD.status IN ('completed', 'failed') AND NEW.status = 'refunded')) THEN
    RAISE EXCEPTION 'payment % cannot go from % to %', OLD.id, OLD.status, NEW.status
      USING ERRCODE = 'check_violation', CONSTRAINT = 'pagamenti_status_transition';
  END IF;
  -- A completed payment keeps the provider's payment that paid it.
  IF OLD.status = 'completed' AND NEW.status = 'completed'
     AND NEW.provider_payment_id IS DISTINCT FROM OLD.provider_payment_id THEN
    RAISE EXCEPTION 'payment % is already completed by %', OLD.id, OLD.provider_payment_id
      USING ERRCODE = 'check_violation', CONSTRAINT = 'pagamenti_status_transition';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER pagamenti_status_transition BEFORE UPDATE OF status, provider_payment_id ON pagamenti
  FOR EACH ROW EXECUTE FUNCTION bicielis_payment_transition();

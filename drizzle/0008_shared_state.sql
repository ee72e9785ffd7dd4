CREATE TABLE "job_runs" (
	"job" text NOT NULL,
	"scheduled_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"runner" text NOT NULL,
	"error" text,
	CONSTRAINT "job_runs_job_scheduled_at_pk" PRIMARY KEY("job","scheduled_at"),
	CONSTRAINT "job_runs_finished_after_start" CHECK ("job_runs"."finished_at" is null or "job_runs"."finished_at" >= "job_runs"."started_at")
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"reset_at" timestamp with time zone NOT NULL,
	CONSTRAINT "rate_limits_hits_positive" CHECK ("rate_limits"."hits" > 0)
);
--> statement-breakpoint
CREATE INDEX "rate_limits_reset_idx" ON "rate_limits" USING btree ("reset_at");
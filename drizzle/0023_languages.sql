ALTER TABLE "users" ADD COLUMN "lingua" text DEFAULT 'it' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_lingua_valid" CHECK ("users"."lingua" in ('it', 'en'));
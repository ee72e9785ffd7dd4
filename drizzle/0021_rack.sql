CREATE TABLE "rastrelliera_link" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "rastrelliera_link_token_hash_idx" ON "rastrelliera_link" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "rastrelliera_link_one_live" ON "rastrelliera_link" USING btree ((true)) WHERE "rastrelliera_link"."revoked_at" is null;
CREATE TABLE "identita_esterne" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"issuer" text NOT NULL,
	"sub" text NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ultimo_accesso_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "oidc_completamenti" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"issuer" text NOT NULL,
	"sub" text NOT NULL,
	"email" text NOT NULL,
	"nome" text,
	"cognome" text,
	"lingua" text DEFAULT 'it' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "oidc_completamenti_lingua_valid" CHECK ("oidc_completamenti"."lingua" in ('it', 'en'))
);
--> statement-breakpoint
CREATE TABLE "oidc_richieste" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"nonce" text NOT NULL,
	"code_verifier" text NOT NULL,
	"ritorno" text,
	"lingua" text DEFAULT 'it' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "oidc_richieste_lingua_valid" CHECK ("oidc_richieste"."lingua" in ('it', 'en'))
);
--> statement-breakpoint
CREATE TABLE "passkeys" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"credential_id" text NOT NULL,
	"chiave_pubblica" "bytea" NOT NULL,
	"contatore" bigint DEFAULT 0 NOT NULL,
	"trasporti" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"nome" text NOT NULL,
	"sincronizzata" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ultimo_uso_at" timestamp with time zone,
	CONSTRAINT "passkeys_nome_length" CHECK (length("passkeys"."nome") between 1 and 80)
);
--> statement-breakpoint
CREATE TABLE "webauthn_sfide" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"scopo" text NOT NULL,
	"user_id" integer,
	"challenge" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "webauthn_sfide_scopo_valid" CHECK ("webauthn_sfide"."scopo" in ('registrazione', 'accesso', 'secondo_fattore')),
	CONSTRAINT "webauthn_sfide_utente" CHECK (("webauthn_sfide"."scopo" = 'accesso') = ("webauthn_sfide"."user_id" is null))
);
--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "password_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "metodo" text DEFAULT 'password' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "passkey_secondo_fattore" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "identita_esterne" ADD CONSTRAINT "identita_esterne_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passkeys" ADD CONSTRAINT "passkeys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webauthn_sfide" ADD CONSTRAINT "webauthn_sfide_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "identita_esterne_issuer_sub" ON "identita_esterne" USING btree ("issuer","sub");--> statement-breakpoint
CREATE UNIQUE INDEX "identita_esterne_user_issuer" ON "identita_esterne" USING btree ("user_id","issuer");--> statement-breakpoint
CREATE INDEX "oidc_completamenti_expires_idx" ON "oidc_completamenti" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "oidc_richieste_expires_idx" ON "oidc_richieste" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "passkeys_credential_id" ON "passkeys" USING btree ("credential_id");--> statement-breakpoint
CREATE INDEX "passkeys_user_idx" ON "passkeys" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "webauthn_sfide_expires_idx" ON "webauthn_sfide" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_metodo_valid" CHECK ("sessions"."metodo" in ('password', 'passkey', 'oidc'));
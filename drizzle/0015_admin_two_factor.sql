CREATE TABLE "codici_recupero" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"hash" text NOT NULL,
	"usato_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" DROP CONSTRAINT "sessions_kind_valid";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_segreto" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_attivo_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_ultimo_passo" bigint;--> statement-breakpoint
ALTER TABLE "codici_recupero" ADD CONSTRAINT "codici_recupero_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "codici_recupero_user_hash" ON "codici_recupero" USING btree ("user_id","hash");--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_kind_valid" CHECK ("sessions"."kind" in ('session', 'password_change', 'two_factor'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_totp_attivo_ha_segreto" CHECK ("users"."totp_attivo_at" is null or "users"."totp_segreto" is not null);--> statement-breakpoint
-- Hand addition (decision 030): a second factor turned on or off changes what a cached
-- session may do (ADMIN_2FA_REQUIRED), so the session caches are told, as for a role change
-- (0001, decision 008).
DROP TRIGGER users_notify_changed ON users;--> statement-breakpoint
CREATE TRIGGER users_notify_changed AFTER UPDATE ON users
  FOR EACH ROW
  WHEN (OLD.attiva IS DISTINCT FROM NEW.attiva OR OLD.ruolo IS DISTINCT FROM NEW.ruolo
     OR OLD.nome IS DISTINCT FROM NEW.nome OR OLD.cognome IS DISTINCT FROM NEW.cognome
     OR OLD.email IS DISTINCT FROM NEW.email OR OLD.is_residente IS DISTINCT FROM NEW.is_residente
     OR OLD.sigla_residente IS DISTINCT FROM NEW.sigla_residente
     OR OLD.totp_attivo_at IS DISTINCT FROM NEW.totp_attivo_at)
  EXECUTE FUNCTION bicielis_notify_user_changed();

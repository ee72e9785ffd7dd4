CREATE TABLE "azioni_offline" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"prenotazione_id" integer NOT NULL,
	"tipo" text NOT NULL,
	"ora_dispositivo" timestamp with time zone,
	"ora_applicata" timestamp with time zone NOT NULL,
	"fonte_ora" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "azioni_offline_tipo_valid" CHECK ("azioni_offline"."tipo" in ('ritiro', 'riconsegna')),
	CONSTRAINT "azioni_offline_fonte_ora_valid" CHECK ("azioni_offline"."fonte_ora" = 'server' or ("azioni_offline"."fonte_ora" = 'dispositivo' and "azioni_offline"."ora_applicata" = "azioni_offline"."ora_dispositivo"))
);
--> statement-breakpoint
ALTER TABLE "azioni_offline" ADD CONSTRAINT "azioni_offline_prenotazione_id_prenotazioni_id_fk" FOREIGN KEY ("prenotazione_id") REFERENCES "public"."prenotazioni"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "azioni_offline_created_idx" ON "azioni_offline" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "azioni_offline_prenotazione_idx" ON "azioni_offline" USING btree ("prenotazione_id");
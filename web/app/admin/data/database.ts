// Generated from internal/query/tables.go by `go test ./internal/query -run TestDatabaseTypes -update`;
// that test fails when this file is out of date. Do not edit.

export type Database = {
  public: {
    Tables: {
      contact_messages: {
        Row: {
          id: string;
          received_at: string;
          name: string;
          email: string;
          company: string | null;
          phone: string | null;
          message: string;
          spam: boolean;
          handled_at: string | null;
          handled_by: string | null;
        };
        Insert: { [_ in never]: never };
        Update: {
          spam?: boolean;
          handled_at?: string | null;
          handled_by?: string | null;
        };
        Relationships: [];
      };
      waitlist: {
        Row: {
          product_id: string;
          email: string;
          joined_at: string;
        };
        Insert: { [_ in never]: never };
        Update: { [_ in never]: never };
        Relationships: [];
      };
      subscribers: {
        Row: {
          email: string;
          subscribed_at: string;
        };
        Insert: { [_ in never]: never };
        Update: { [_ in never]: never };
        Relationships: [];
      };
      analytics_live: {
        Row: {
          id: string;
          updated_at: string;
        };
        Insert: { [_ in never]: never };
        Update: { [_ in never]: never };
        Relationships: [];
      };
    };
    Views: { [_ in never]: never };
    Functions: { [_ in never]: never };
    Enums: { [_ in never]: never };
    CompositeTypes: { [_ in never]: never };
  };
};

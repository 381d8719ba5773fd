import { IsRFC3339, ValidateIf } from 'class-validator';

/** `PATCH /admin/v1/keys/:id`: a new expiry for the key, or null for none. */
export class SetExpiryDto {
  // null clears the expiry; anything else (a missing field included) must be an RFC 3339 date-time with its offset.
  @ValidateIf((dto: SetExpiryDto) => dto.expiresAt !== null)
  @IsRFC3339({ message: 'expiresAt must be an RFC 3339 date-time such as 2027-01-31T00:00:00Z, or null' })
  expiresAt!: string | null;
}

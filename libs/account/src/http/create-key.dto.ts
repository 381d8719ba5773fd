import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

export class CreateKeyDto {
  @IsOptional()
  @IsString()
  @Matches(/^[\w .@-]{1,64}$/, { message: 'workspace must be 1-64 letters, digits, spaces or . @ - _' })
  workspace?: string;

  @IsOptional()
  @IsBoolean()
  inactive?: boolean;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10 * 365 * 86400)
  expiresInSeconds?: number;
}

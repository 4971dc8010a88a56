output "instance_ids" {
  description = "The servers' instance IDs, in server order."
  value       = aws_instance.this[*].id
}

output "private_ips" {
  description = "The servers' private IPv4 addresses, in server order."
  value       = aws_instance.this[*].private_ip
}

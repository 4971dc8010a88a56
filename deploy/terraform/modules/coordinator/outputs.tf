output "instance_id" {
  description = "The coordinator's instance ID."
  value       = aws_instance.this.id
}

output "private_ip" {
  description = "The coordinator's private IPv4 address."
  value       = aws_instance.this.private_ip
}
